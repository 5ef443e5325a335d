#pragma once

// Names of the port byte counters that more than one room reads: the inventory component exports
// them, diagnose reads them back from a daemon's exposition. One spelling, here; the names are
// part of the public contract (docs/metrics.md).

namespace rocewatch {

inline constexpr char kPortTransmitBytesMetric[] = "rocewatch_port_transmit_bytes_total";
inline constexpr char kPortReceiveBytesMetric[] = "rocewatch_port_receive_bytes_total";

}  // namespace rocewatch
