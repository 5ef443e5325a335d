#include "link_quality/optics_detector.h"

#include <cmath>
#include <cstdio>

#include "model/check_policy.h"

namespace rocewatch {
namespace {

void Check(OpticsStatus& status, const std::string& quantity, std::optional<int> lane,
           const std::optional<double>& value, const std::optional<ModuleThresholds>& t) {
  if (!value || !t) return;
  const double v = *value;
  auto add = [&](OpticsLevel level, bool high, double threshold) {
    status.violations.push_back({quantity, lane, level, high, v, threshold});
  };
  if (v > t->high_alarm) {
    add(OpticsLevel::kAlarm, true, t->high_alarm);
  } else if (v < t->low_alarm) {
    add(OpticsLevel::kAlarm, false, t->low_alarm);
  } else if (v > t->high_warning) {
    add(OpticsLevel::kWarning, true, t->high_warning);
  } else if (v < t->low_warning) {
    add(OpticsLevel::kWarning, false, t->low_warning);
  }
}

std::string Describe(const OpticsViolation& v) {
  std::string what = v.quantity;
  for (char& c : what)
    if (c == '_') c = ' ';
  if (v.lane) what += " lane " + std::to_string(*v.lane);
  return what + " " + FormatOpticsValue(v.quantity, v.value) + (v.high ? " above" : " below") +
         " the module's " + (v.high ? "high " : "low ") + OpticsLevelLabel(v.level) + " " +
         FormatOpticsValue(v.quantity, v.threshold);
}

}  // namespace

const char* OpticsLevelLabel(OpticsLevel level) {
  return level == OpticsLevel::kAlarm ? "alarm" : "warning";
}

std::string FormatOpticsValue(const std::string& quantity, double value) {
  char text[48];
  if (quantity == "rx_power" || quantity == "tx_power") {
    if (value <= 0) return "0 mW (no light)";
    std::snprintf(text, sizeof(text), "%.2f dBm", 10 * std::log10(value * 1e3));
  } else if (quantity == "temperature") {
    std::snprintf(text, sizeof(text), "%.1f degC", value);
  } else if (quantity == "voltage") {
    std::snprintf(text, sizeof(text), "%.3f V", value);
  } else if (quantity == "tx_bias") {
    std::snprintf(text, sizeof(text), "%.2f mA", value * 1e3);
  } else {
    std::snprintf(text, sizeof(text), "%g", value);
  }
  return text;
}

OpticsStatus EvaluateOptics(const ModuleReading& m) {
  OpticsStatus status;
  Check(status, "temperature", std::nullopt, m.temperature_celsius, m.temperature_thresholds);
  Check(status, "voltage", std::nullopt, m.supply_volts, m.voltage_thresholds);
  for (const ModuleLane& lane : m.lanes) {
    if (!lane.active) continue;  // a lane not in use is not expected to be in range
    Check(status, "rx_power", lane.lane, lane.rx_power_watts, m.rx_power_thresholds);
    Check(status, "tx_power", lane.lane, lane.tx_power_watts, m.tx_power_thresholds);
    Check(status, "tx_bias", lane.lane, lane.tx_bias_amperes, m.tx_bias_thresholds);
  }
  // A dark lane: no light on one active lane while another active lane receives normally.
  // Dark: 10 dB below the module's low alarm (a lane that is merely weak is an alarm, not dark).
  const double dark_below =
      m.rx_power_thresholds ? m.rx_power_thresholds->low_alarm / 10 : kDarkLaneWatts;
  const double lit_from =
      m.rx_power_thresholds ? m.rx_power_thresholds->low_warning : kDarkLaneWatts;
  bool any_lit = false;
  for (const ModuleLane& lane : m.lanes)
    any_lit = any_lit || (lane.active && lane.rx_power_watts && *lane.rx_power_watts >= lit_from);
  if (any_lit)
    for (const ModuleLane& lane : m.lanes)
      if (lane.active && lane.rx_power_watts && *lane.rx_power_watts < dark_below)
        status.dark_lanes.push_back(lane.lane);
  return status;
}

std::vector<Finding> OpticsFindings(const std::string& netdev, const OpticsStatus& status) {
  std::vector<Finding> findings;
  std::string alarms, warnings;
  for (const OpticsViolation& v : status.violations) {
    std::string& list = v.level == OpticsLevel::kAlarm ? alarms : warnings;
    if (!list.empty()) list += "; ";
    list += Describe(v);
  }
  if (!status.dark_lanes.empty()) {
    std::string lanes;
    for (int lane : status.dark_lanes) lanes += (lanes.empty() ? "" : ", ") + std::to_string(lane);
    findings.push_back(
        {SeverityOf("optics_lane_dark"), "optics_lane_dark", netdev,
         "transceiver lane" + std::string(status.dark_lanes.size() > 1 ? "s " : " ") + lanes +
             " receive no light while the other lanes hold",
         "one lane of the link is dark: clean or reseat the connector, replace the cable or "
         "transceiver at either end (docs/runbooks/RoceOpticsOutOfRange.md)"});
  }
  if (!alarms.empty())
    findings.push_back({SeverityOf("optics_alarm"), "optics_alarm", netdev,
                        "transceiver out of its alarm range: " + alarms,
                        "replace the transceiver or cable, or fix its cooling; check the far end "
                        "(docs/runbooks/RoceOpticsOutOfRange.md)"});
  if (!warnings.empty())
    findings.push_back({SeverityOf("optics_warning"), "optics_warning", netdev,
                        "transceiver out of its warning range: " + warnings,
                        "schedule a cable/transceiver check before it reaches the alarm range "
                        "(docs/runbooks/RoceOpticsOutOfRange.md)"});
  return findings;
}

}  // namespace rocewatch
