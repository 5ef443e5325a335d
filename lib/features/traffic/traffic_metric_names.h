#pragma once

// Names of the traffic families that more than one room reads: the traffic component exports
// them, diagnose reads them back from a daemon's exposition. One spelling, here; the names are
// part of the public contract (docs/metrics.md).

namespace rocewatch {

inline constexpr char kTrafficBaselineMetric[] = "rocewatch_traffic_baseline_bytes_per_second";
inline constexpr char kTrafficStateMetric[] = "rocewatch_traffic_state";
inline constexpr char kTrafficCollapsedNodeWideMetric[] = "rocewatch_traffic_collapsed_node_wide";

}  // namespace rocewatch
