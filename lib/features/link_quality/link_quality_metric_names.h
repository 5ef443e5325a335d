#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kPreFecBerMetric[] = "rocewatch_netdev_pre_fec_ber";
inline constexpr char kLinkQualityStateMetric[] = "rocewatch_link_quality_state";
inline constexpr char kPfcPausedRatioMetric[] = "rocewatch_netdev_pfc_paused_ratio";
inline constexpr char kPfcStormMetric[] = "rocewatch_netdev_pfc_storm";
inline constexpr char kModuleLaneDarkMetric[] = "rocewatch_module_lane_dark";
inline constexpr char kModuleOutOfRangeMetric[] = "rocewatch_module_out_of_range";
inline constexpr char kModuleReadSuccessMetric[] = "rocewatch_module_read_success";
inline constexpr char kModuleRxPowerWattsMetric[] = "rocewatch_module_rx_power_watts";
inline constexpr char kModuleSupplyVoltageVoltsMetric[] = "rocewatch_module_supply_voltage_volts";
inline constexpr char kModuleTemperatureCelsiusMetric[] = "rocewatch_module_temperature_celsius";
inline constexpr char kModuleTxBiasAmperesMetric[] = "rocewatch_module_tx_bias_amperes";
inline constexpr char kModuleTxPowerWattsMetric[] = "rocewatch_module_tx_power_watts";
inline constexpr char kNetdevEthtoolSupportedMetric[] = "rocewatch_netdev_ethtool_supported";
inline constexpr char kNetdevFecCorrectedBitErrorsTotalMetric[] =
    "rocewatch_netdev_fec_corrected_bit_errors_total";
inline constexpr char kNetdevFecCorrectedBlocksTotalMetric[] =
    "rocewatch_netdev_fec_corrected_blocks_total";
inline constexpr char kNetdevFecUncorrectableBlocksTotalMetric[] =
    "rocewatch_netdev_fec_uncorrectable_blocks_total";
inline constexpr char kNetdevLinkDownEventsTotalMetric[] =
    "rocewatch_netdev_link_down_events_total";
inline constexpr char kNetdevPfcPauseFramesTotalMetric[] =
    "rocewatch_netdev_pfc_pause_frames_total";
inline constexpr char kNetdevPfcPauseSecondsTotalMetric[] =
    "rocewatch_netdev_pfc_pause_seconds_total";
inline constexpr char kNetdevPfcStormEventsTotalMetric[] =
    "rocewatch_netdev_pfc_storm_events_total";
inline constexpr char kNetdevPhySymbolErrorsTotalMetric[] =
    "rocewatch_netdev_phy_symbol_errors_total";

}  // namespace rocewatch
