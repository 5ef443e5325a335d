#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kRailNeighborInfoMetric[] = "rocewatch_rail_neighbor_info";
inline constexpr char kLldpFramesDroppedTotalMetric[] = "rocewatch_lldp_frames_dropped_total";
inline constexpr char kLldpFramesInvalidTotalMetric[] = "rocewatch_lldp_frames_invalid_total";
inline constexpr char kLldpFramesTotalMetric[] = "rocewatch_lldp_frames_total";
inline constexpr char kLldpReceivingMetric[] = "rocewatch_lldp_receiving";
inline constexpr char kNetdevPfcEnabledMetric[] = "rocewatch_netdev_pfc_enabled";
inline constexpr char kRailCabledAsPlannedMetric[] = "rocewatch_rail_cabled_as_planned";
inline constexpr char kRailNeighborAgeSecondsMetric[] = "rocewatch_rail_neighbor_age_seconds";
inline constexpr char kRailNeighborMaxFrameSizeBytesMetric[] =
    "rocewatch_rail_neighbor_max_frame_size_bytes";
inline constexpr char kRailNeighborPfcEnabledMetric[] = "rocewatch_rail_neighbor_pfc_enabled";
inline constexpr char kRailNeighborRocePriorityMetric[] = "rocewatch_rail_neighbor_roce_priority";

}  // namespace rocewatch
