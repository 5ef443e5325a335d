#pragma once

// Names of the fabric families that more than one room reads: the LLDP component exports them,
// diagnose reads them back from a daemon's exposition. One spelling, here; the names are part of
// the public contract (docs/metrics.md).

namespace rocewatch {

inline constexpr char kRailNeighborInfoMetric[] = "rocewatch_rail_neighbor_info";

}  // namespace rocewatch
