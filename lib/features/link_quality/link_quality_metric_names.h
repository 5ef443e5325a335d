#pragma once

// Names of the link-quality families that more than one room reads: the ethtool component exports
// them, diagnose reads them back from a daemon's exposition. One spelling, here; the names are
// part of the public contract (docs/metrics.md).

namespace rocewatch {

inline constexpr char kPreFecBerMetric[] = "rocewatch_netdev_pre_fec_ber";
inline constexpr char kLinkQualityStateMetric[] = "rocewatch_link_quality_state";
inline constexpr char kPfcPausedRatioMetric[] = "rocewatch_netdev_pfc_paused_ratio";
inline constexpr char kPfcStormMetric[] = "rocewatch_netdev_pfc_storm";

}  // namespace rocewatch
