#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kPortTransmitBytesMetric[] = "rocewatch_port_transmit_bytes_total";
inline constexpr char kPortReceiveBytesMetric[] = "rocewatch_port_receive_bytes_total";
inline constexpr char kDeviceMissingMetric[] = "rocewatch_device_missing";
inline constexpr char kGidInfoMetric[] = "rocewatch_gid_info";
inline constexpr char kPortActiveMetric[] = "rocewatch_port_active";
inline constexpr char kPortCounterTotalMetric[] = "rocewatch_port_counter_total";
inline constexpr char kPortEventsTotalMetric[] = "rocewatch_port_events_total";
inline constexpr char kPortHwEventsTotalMetric[] = "rocewatch_port_hw_events_total";
inline constexpr char kPortInfoMetric[] = "rocewatch_port_info";
inline constexpr char kPortTransmitWaitTicksTotalMetric[] =
    "rocewatch_port_transmit_wait_ticks_total";
inline constexpr char kRdmaDevicesMetric[] = "rocewatch_rdma_devices";

}  // namespace rocewatch
