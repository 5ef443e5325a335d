#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kTrafficBaselineMetric[] = "rocewatch_traffic_baseline_bytes_per_second";
inline constexpr char kTrafficStateMetric[] = "rocewatch_traffic_state";
inline constexpr char kTrafficCollapsedNodeWideMetric[] = "rocewatch_traffic_collapsed_node_wide";
inline constexpr char kTrafficConsumersMetric[] = "rocewatch_traffic_consumers";
inline constexpr char kRailDownUnderJobMetric[] = "rocewatch_rail_down_under_job";
inline constexpr char kTrafficRateBytesPerSecondMetric[] =
    "rocewatch_traffic_rate_bytes_per_second";

}  // namespace rocewatch
