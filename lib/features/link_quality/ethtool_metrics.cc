// The ethtool component's metric families (link_quality/ethtool_component.h): the driver's and
// the PHY's counters, the detectors' verdicts, and the optics of each module.
#include "link_quality/ethtool_component.h"
#include "link_quality/ethtool_samples.h"
#include "link_quality/link_quality_metric_names.h"

namespace rocewatch {
namespace {

using prometheus::MetricType;

Labels NetdevLabels(const std::string& netdev) { return {{"netdev", netdev}}; }

Labels PfcLabels(const PfcKey& key) {
  return {{"netdev", key.netdev},
          {"priority", std::to_string(key.priority)},
          {"direction", PauseDirectionLabel(key.direction)}};
}

}  // namespace

void EthtoolComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  AppendCounterMetrics(out);
  AppendVerdictMetrics(out);
  AppendOpticsMetrics(out);
}

// The counters of the latest poll of each netdev, as read.
void EthtoolComponent::AppendCounterMetrics(MetricFamilies& out) const {
  out.Declare(kNetdevFecCorrectedBlocksTotalMetric,
              "FEC blocks the PHY corrected (ethtool FEC statistics).", MetricType::Counter);
  out.Declare(kNetdevFecUncorrectableBlocksTotalMetric,
              "FEC blocks the PHY could not correct: frames lost on the wire.",
              MetricType::Counter);
  out.Declare(kNetdevFecCorrectedBitErrorsTotalMetric,
              "Bits the FEC corrected (ethtool FEC statistics or mlx5 rx_corrected_bits_phy).",
              MetricType::Counter);
  out.Declare(kNetdevPhySymbolErrorsTotalMetric,
              "PHY symbol errors (mlx5 rx_pcs_symbol_err_phy / rx_symbol_err_phy, or the "
              "standard eth-phy SymbolErrorDuringCarrier).",
              MetricType::Counter);
  out.Declare(kNetdevLinkDownEventsTotalMetric,
              "Link-down events the PHY counted (mlx5 link_down_events_phy, or the "
              "ethtool link-down count).",
              MetricType::Counter);
  out.Declare(kNetdevPfcPauseSecondsTotalMetric,
              "Time paused by PFC per priority (direction rx: the fabric paused us; tx: we "
              "paused the fabric), from the driver's pause-duration counters.",
              MetricType::Counter);
  out.Declare(kNetdevPfcPauseFramesTotalMetric, "PFC pause frames per priority and direction.",
              MetricType::Counter);
  out.Declare(kNetdevPfcStormEventsTotalMetric,
              "The NIC's own pause storm (device stall) events, by level "
              "(mlx5 tx_pause_storm_warning_events / _error_events).",
              MetricType::Counter);
  out.Declare(kNetdevEthtoolSupportedMetric,
              "1 if the netdev's driver answers the ethtool request, 0 if it does not "
              "implement it (request: statistics, fec, link_state, pause, "
              "standard_statistics).",
              MetricType::Gauge);

  for (const auto& [netdev, r] : latest_) {
    const Labels labels = NetdevLabels(netdev);
    for (const auto& [request, outcome] : r.outcomes) {
      if (outcome != RequestOutcome::kAnswered && outcome != RequestOutcome::kUnsupported) continue;
      Labels with = labels;
      with.emplace_back("request", request);
      out.Gauge(kNetdevEthtoolSupportedMetric, "", with,
                outcome == RequestOutcome::kAnswered ? 1 : 0);
    }
    if (r.fec && r.fec->corrected_blocks)
      out.Counter(kNetdevFecCorrectedBlocksTotalMetric, "", labels,
                  static_cast<double>(*r.fec->corrected_blocks));
    if (r.fec && r.fec->uncorrectable_blocks)
      out.Counter(kNetdevFecUncorrectableBlocksTotalMetric, "", labels,
                  static_cast<double>(*r.fec->uncorrectable_blocks));
    if (auto bits = CorrectedBits(r))
      out.Counter(kNetdevFecCorrectedBitErrorsTotalMetric, "", labels, double(*bits));
    if (auto errors = SymbolErrors(r))
      out.Counter(kNetdevPhySymbolErrorsTotalMetric, "", labels, double(*errors));
    if (auto events = LinkDownEvents(r))
      out.Counter(kNetdevLinkDownEventsTotalMetric, "", labels, double(*events));
    for (const InterpretedDriverCounters::PerPriority& p : r.interpreted.per_priority) {
      if (!p.direction) continue;
      if (p.kind == DriverCounterKind::kPfcPauseDuration) {
        out.Counter(kNetdevPfcPauseSecondsTotalMetric, "",
                    PfcLabels({netdev, p.priority, *p.direction}), double(p.value) * 1e-6);
      } else if (p.kind == DriverCounterKind::kPfcPauseFrames) {
        out.Counter(kNetdevPfcPauseFramesTotalMetric, "",
                    PfcLabels({netdev, p.priority, *p.direction}), double(p.value));
      }
    }
    for (auto [kind, level] : {std::pair{DriverCounterKind::kPauseStormWarningEvents, "warning"},
                               std::pair{DriverCounterKind::kPauseStormErrorEvents, "error"}}) {
      if (auto events = r.interpreted.Total(kind)) {
        Labels with = labels;
        with.emplace_back("level", level);
        out.Counter(kNetdevPfcStormEventsTotalMetric, "", with, double(*events));
      }
    }
  }
}

// The detectors' windowed figures and states.
void EthtoolComponent::AppendVerdictMetrics(MetricFamilies& out) const {
  out.Declare(kPreFecBerMetric, "Estimated pre-FEC bit error ratio over the link-quality window.",
              MetricType::Gauge);
  out.Declare(kLinkQualityStateMetric,
              "1 for the link's current quality state (ok, degraded, failing), 0 for "
              "the others.",
              MetricType::Gauge);
  out.Declare(kPfcPausedRatioMetric, "Fraction of the PFC window the priority was paused.",
              MetricType::Gauge);
  out.Declare(kPfcStormMetric, "1 while a PFC storm is detected on the priority and direction.",
              MetricType::Gauge);
  for (const auto& [netdev, status] : link_quality_.netdevs()) {
    const Labels labels = NetdevLabels(netdev);
    if (status.pre_fec_ber) out.Gauge(kPreFecBerMetric, "", labels, *status.pre_fec_ber);
    for (LinkQualityState state : kAllLinkQualityStates) {
      Labels with = labels;
      with.emplace_back("state", LinkQualityStateLabel(state));
      out.Gauge(kLinkQualityStateMetric, "", with, status.state == state ? 1 : 0);
    }
  }
  for (const auto& [key, status] : pfc_.priorities()) {
    if (status.paused_fraction)
      out.Gauge(kPfcPausedRatioMetric, "", PfcLabels(key), *status.paused_fraction);
    out.Gauge(kPfcStormMetric, "", PfcLabels(key), status.storm ? 1 : 0);
  }
}

// Each module's readings and the optics checks' violations.
void EthtoolComponent::AppendOpticsMetrics(MetricFamilies& out) const {
  out.Declare(kModuleTemperatureCelsiusMetric, "Transceiver temperature.", MetricType::Gauge);
  out.Declare(kModuleSupplyVoltageVoltsMetric, "Transceiver supply voltage.", MetricType::Gauge);
  out.Declare(kModuleRxPowerWattsMetric, "Received optical power per lane.", MetricType::Gauge);
  out.Declare(kModuleTxPowerWattsMetric, "Transmitted optical power per lane.", MetricType::Gauge);
  out.Declare(kModuleTxBiasAmperesMetric, "Laser bias current per lane.", MetricType::Gauge);
  out.Declare(kModuleOutOfRangeMetric,
              "1 per quantity (and lane) outside the module's own warning or alarm thresholds "
              "(level warning|alarm, side high|low).",
              MetricType::Gauge);
  out.Declare(kModuleLaneDarkMetric,
              "1 for an active lane without light while the module's other lanes hold.",
              MetricType::Gauge);
  out.Declare(kModuleReadSuccessMetric, "1 if the last read of the module's pages succeeded.",
              MetricType::Gauge);
  for (const auto& [netdev, outcome] : modules_) {
    const Labels labels = NetdevLabels(netdev);
    out.Gauge(kModuleReadSuccessMetric, "", labels,
              outcome.error.empty() && outcome.module ? 1 : 0);
    if (!outcome.module) continue;
    const ModuleReading& m = *outcome.module;
    if (m.temperature_celsius)
      out.Gauge(kModuleTemperatureCelsiusMetric, "", labels, *m.temperature_celsius);
    if (m.supply_volts) out.Gauge(kModuleSupplyVoltageVoltsMetric, "", labels, *m.supply_volts);
    for (const ModuleLane& lane : m.lanes) {
      Labels with = labels;
      with.emplace_back("lane", std::to_string(lane.lane));
      if (lane.rx_power_watts) out.Gauge(kModuleRxPowerWattsMetric, "", with, *lane.rx_power_watts);
      if (lane.tx_power_watts) out.Gauge(kModuleTxPowerWattsMetric, "", with, *lane.tx_power_watts);
      if (lane.tx_bias_amperes)
        out.Gauge(kModuleTxBiasAmperesMetric, "", with, *lane.tx_bias_amperes);
    }
  }
  for (const auto& [netdev, status] : optics_) {
    for (const OpticsViolation& v : status.violations) {
      Labels with = NetdevLabels(netdev);
      with.emplace_back("quantity", v.quantity);
      with.emplace_back("lane", v.lane ? std::to_string(*v.lane) : "");
      with.emplace_back("level", OpticsLevelLabel(v.level));
      with.emplace_back("side", v.high ? "high" : "low");
      out.Gauge(kModuleOutOfRangeMetric, "", with, 1);
    }
    for (int lane : status.dark_lanes) {
      Labels with = NetdevLabels(netdev);
      with.emplace_back("lane", std::to_string(lane));
      out.Gauge(kModuleLaneDarkMetric, "", with, 1);
    }
  }
}

}  // namespace rocewatch
