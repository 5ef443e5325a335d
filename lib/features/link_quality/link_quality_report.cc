#include "link_quality/link_quality_report.h"

#include <cstdio>

#include "core/terminal_text.h"
#include "link_quality/ethtool_samples.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

template <typename T>
nlohmann::ordered_json OrNull(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json ThresholdsJson(const std::optional<ModuleThresholds>& t) {
  if (!t) return nullptr;
  return {{"high_alarm", t->high_alarm},
          {"low_alarm", t->low_alarm},
          {"high_warning", t->high_warning},
          {"low_warning", t->low_warning}};
}

// The daemon does not export its window's span: its state stands as it says.
std::string QualityLabel(const LinkQualityEntry& e) {
  const std::optional<LinkQualityStatus>& q = e.quality;
  if (!q || (e.figures != LinkFiguresSource::kDaemon && q->window_seconds <= 0)) return "unknown";
  return LinkQualityStateLabel(q->state);
}

// "sampled over 2.0 s", "the daemon's view", ...: where the state and rates come from.
std::string FiguresText(const LinkQualityEntry& e) {
  char span[48] = "";
  if (e.quality && e.quality->window_seconds > 0)
    std::snprintf(span, sizeof(span), " over %.1f s", e.quality->window_seconds);
  switch (e.figures) {
    case LinkFiguresSource::kSampled:
      return std::string("sampled") + span + " by this run";
    case LinkFiguresSource::kWatch:
      return std::string("the --watch window") + span;
    case LinkFiguresSource::kDaemon:
      return "the daemon's view";
    case LinkFiguresSource::kNone:
      break;
  }
  return e.no_figures_reason.empty() ? "no window" : e.no_figures_reason;
}

std::string Number(uint64_t value) { return std::to_string(value); }

}  // namespace

const char* LinkFiguresSourceLabel(LinkFiguresSource source) {
  switch (source) {
    case LinkFiguresSource::kNone:
      return "none";
    case LinkFiguresSource::kSampled:
      return "sampled";
    case LinkFiguresSource::kWatch:
      return "watch";
    case LinkFiguresSource::kDaemon:
      return "daemon";
  }
  return "none";
}

nlohmann::ordered_json LinkQualityToJson(const std::vector<LinkQualityEntry>& entries) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const LinkQualityEntry& e : entries) {
    const NetdevEthtool& r = e.readings;
    nlohmann::ordered_json j;
    j["netdev"] = e.netdev;
    j["source"] = r.recorded ? "recording" : "kernel";
    j["state"] = QualityLabel(e);
    j["pre_fec_ber"] = e.quality ? OrNull(e.quality->pre_fec_ber) : nullptr;
    j["reason"] = e.quality ? e.quality->reason : "";
    j["window"] = {{"source", LinkFiguresSourceLabel(e.figures)},
                   {"seconds", e.quality && e.quality->window_seconds > 0
                                   ? nlohmann::ordered_json(e.quality->window_seconds)
                                   : nlohmann::ordered_json(nullptr)},
                   {"why_none", e.figures == LinkFiguresSource::kNone ? e.no_figures_reason : ""}};
    nlohmann::ordered_json requests = nlohmann::ordered_json::object();
    for (const auto& [request, outcome] : r.outcomes)
      requests[request] = RequestOutcomeLabel(outcome);
    j["requests"] = requests;
    j["speed_mbps"] = OrNull(r.speed_mbps);
    if (r.fec) {
      j["fec"] = {{"corrected_blocks", OrNull(r.fec->corrected_blocks)},
                  {"uncorrectable_blocks", OrNull(r.fec->uncorrectable_blocks)},
                  {"corrected_bits", OrNull(r.fec->corrected_bits)}};
    } else {
      j["fec"] = nullptr;
    }
    j["corrected_bits"] = OrNull(CorrectedBits(r));
    j["symbol_errors"] = OrNull(SymbolErrors(r));
    j["link_down_events"] = OrNull(LinkDownEvents(r));
    if (r.link_state) {
      j["link"] = {{"up", OrNull(r.link_state->link_up)},
                   {"ext_state", DescribeLinkExtState(*r.link_state)},
                   {"link_down_count", OrNull(r.link_state->link_down_count)}};
    } else {
      j["link"] = nullptr;
    }
    nlohmann::ordered_json pfc = nlohmann::ordered_json::array();
    for (const auto& [key, status] : e.pfc)
      pfc.push_back({{"priority", key.priority},
                     {"direction", PauseDirectionLabel(key.direction)},
                     {"paused_ratio", OrNull(status.paused_fraction)},
                     {"storm", status.storm}});
    j["pfc"] = pfc;
    if (e.module && e.module->module) {
      const ModuleReading& m = *e.module->module;
      nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
      for (const ModuleLane& lane : m.lanes)
        lanes.push_back({{"lane", lane.lane},
                         {"active", lane.active},
                         {"rx_power_watts", OrNull(lane.rx_power_watts)},
                         {"tx_power_watts", OrNull(lane.tx_power_watts)},
                         {"tx_bias_amperes", OrNull(lane.tx_bias_amperes)}});
      nlohmann::ordered_json violations = nlohmann::ordered_json::array();
      for (const OpticsViolation& v : e.optics.violations)
        violations.push_back({{"quantity", v.quantity},
                              {"lane", OrNull(v.lane)},
                              {"level", OpticsLevelLabel(v.level)},
                              {"side", v.high ? "high" : "low"},
                              {"value", v.value},
                              {"threshold", v.threshold}});
      j["module"] = {{"standard", ModuleStandardLabel(m.standard)},
                     {"temperature_celsius", OrNull(m.temperature_celsius)},
                     {"supply_volts", OrNull(m.supply_volts)},
                     {"lanes", lanes},
                     {"thresholds",
                      {{"temperature", ThresholdsJson(m.temperature_thresholds)},
                       {"voltage", ThresholdsJson(m.voltage_thresholds)},
                       {"rx_power", ThresholdsJson(m.rx_power_thresholds)},
                       {"tx_power", ThresholdsJson(m.tx_power_thresholds)},
                       {"tx_bias", ThresholdsJson(m.tx_bias_thresholds)}}},
                     {"out_of_range", violations},
                     {"dark_lanes", e.optics.dark_lanes},
                     {"error", e.module->error}};
    } else if (e.module) {
      j["module"] = {{"error", e.module->error}};
    } else if (e.module_by_daemon) {
      j["module"] = {{"read_by", "daemon"}, {"age_seconds", ToSeconds(*e.module_by_daemon)}};
    } else {
      j["module"] = nullptr;
    }
    j["errors"] = r.errors;
    list.push_back(std::move(j));
  }
  return list;
}

std::string RenderLinkQualityText(const std::vector<LinkQualityEntry>& entries) {
  std::string text;
  for (const LinkQualityEntry& e : entries) {
    const NetdevEthtool& r = e.readings;
    // Names, reasons and errors carry host strings (a recording's file names, a driver's words).
    text += "  " + TerminalSafe(e.netdev) + ": " + QualityLabel(e);
    if (e.quality && e.quality->pre_fec_ber)
      text += ", pre-FEC BER " + FormatRatio(*e.quality->pre_fec_ber);
    if (e.quality && !e.quality->reason.empty())
      text += " (" + TerminalSafe(e.quality->reason) + ")";
    text += "  [" + FiguresText(e) + "]";
    if (r.recorded) text += "  [recording]";
    text += "\n";
    std::string counters;
    auto add = [&counters](const std::string& part) {
      counters += (counters.empty() ? "" : ", ") + part;
    };
    if (r.fec && r.fec->corrected_blocks) add("FEC corrected " + Number(*r.fec->corrected_blocks));
    if (r.fec && r.fec->uncorrectable_blocks)
      add("uncorrectable " + Number(*r.fec->uncorrectable_blocks));
    if (auto bits = CorrectedBits(r)) add("corrected bits " + Number(*bits));
    if (auto symbols = SymbolErrors(r)) add("symbol errors " + Number(*symbols));
    if (auto downs = LinkDownEvents(r)) add("link down events " + Number(*downs));
    if (!counters.empty()) text += "    " + counters + "\n";
    if (r.link_state && r.link_state->link_up && !*r.link_state->link_up) {
      const std::string why = DescribeLinkExtState(*r.link_state);
      text += "    link down" + (why.empty() ? std::string() : ": " + why) + "\n";
    }
    for (const auto& [key, status] : e.pfc) {
      if (!status.storm && !(status.paused_fraction && *status.paused_fraction > 0)) continue;
      char line[160];
      std::snprintf(line, sizeof(line), "    PFC priority %d %s: paused %.0f%%%s\n", key.priority,
                    PauseDirectionLabel(key.direction),
                    status.paused_fraction ? *status.paused_fraction * 100 : 0.0,
                    status.storm ? " (storm)" : "");
      text += line;
    }
    std::string unsupported;
    for (const auto& [request, outcome] : r.outcomes)
      if (outcome == RequestOutcome::kUnsupported)
        unsupported += (unsupported.empty() ? "" : ", ") + request;
    if (!unsupported.empty()) text += "    not supported by the driver: " + unsupported + "\n";
    if (e.module && e.module->module) {
      const ModuleReading& m = *e.module->module;
      std::string line = std::string("    module (") + ModuleStandardLabel(m.standard) + ")";
      if (m.temperature_celsius)
        line += " " + FormatOpticsValue("temperature", *m.temperature_celsius);
      if (m.supply_volts) line += ", " + FormatOpticsValue("voltage", *m.supply_volts);
      std::string rx;
      for (const ModuleLane& lane : m.lanes)
        if (lane.rx_power_watts && lane.active)
          rx += (rx.empty() ? "" : " ") + FormatOpticsValue("rx_power", *lane.rx_power_watts);
      if (!rx.empty()) line += ", rx " + rx;
      text += line + "\n";
    } else if (e.module && !e.module->error.empty()) {
      text += "    module: " + TerminalSafe(e.module->error) + "\n";
    } else if (e.module_by_daemon) {
      text += "    module: read by the daemon " +
              std::to_string(
                  std::chrono::duration_cast<std::chrono::seconds>(*e.module_by_daemon).count()) +
              " s ago, not by this run (its optics findings are merged)\n";
    }
    for (const std::string& error : r.errors) text += "    error: " + TerminalSafe(error) + "\n";
  }
  return text;
}

std::optional<Finding> EthtoolReadFailure(const std::string& netdev,
                                          const NetdevEthtool& readings) {
  if (readings.errors.empty()) return std::nullopt;
  constexpr size_t kNamed = 3;
  std::string failed;
  for (size_t i = 0; i < readings.errors.size() && i < kNamed; ++i)
    failed += (i ? "; " : "") + readings.errors[i];
  if (readings.errors.size() > kNamed)
    failed += "; and " + std::to_string(readings.errors.size() - kNamed) + " more";
  return Finding{SeverityOf("read_failed"), "read_failed", netdev,
                 netdev + ": ethtool requests failed (" + failed +
                     "): what they answer (FEC, PHY and pause counters, link state) is unknown, "
                     "not zero, and the link-quality and PFC checks judge only what was read",
                 "run `ethtool -S " + netdev + "` and `ethtool --show-fec " + netdev +
                     "` as root and check dmesg (a firmware command that failed, or a driver "
                     "without the request); docs/runbooks/RocewatchSourceReadsFailing.md"};
}

std::vector<Finding> OneShotLinkQualityFindings(const std::vector<LinkQualityEntry>& entries) {
  std::vector<Finding> findings;
  for (const LinkQualityEntry& e : entries) {
    const NetdevEthtool& r = e.readings;
    if (r.link_state && r.link_state->link_up && !*r.link_state->link_up) {
      const std::string why = DescribeLinkExtState(*r.link_state);
      if (!why.empty())
        findings.push_back({SeverityOf("link_down_reason"), "link_down_reason", e.netdev,
                            "link is down: " + why + " (the driver's link_ext_state)",
                            "see docs/runbooks/RoceLinkDown.md; the reason names the side to "
                            "look at (cable, module, autonegotiation, signal integrity)"});
    }
    for (Finding& f : OpticsFindings(e.netdev, e.optics)) findings.push_back(std::move(f));
    if (std::optional<Finding> failed = EthtoolReadFailure(e.netdev, r))
      findings.push_back(std::move(*failed));
  }
  return findings;
}

}  // namespace rocewatch
