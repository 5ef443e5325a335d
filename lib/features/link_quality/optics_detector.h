#pragma once
// Optics against the module's own thresholds (docs/detection.md, "Optics"): a quantity beyond
// its alarm threshold is critical, beyond its warning threshold a warning; and a lane that lost
// its light while the module's other lanes hold (a dark lane: a fibre, connector or laser of one
// lane) is critical. Pure: module readings in, violations and findings out.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ethtool/module_eeprom.h"
#include "model/finding.h"

namespace rocewatch {

enum class OpticsLevel { kWarning, kAlarm };
const char* OpticsLevelLabel(OpticsLevel level);  // "warning" | "alarm"

struct OpticsViolation {
  std::string quantity;  // temperature | voltage | rx_power | tx_power | tx_bias
  std::optional<int> lane;
  OpticsLevel level = OpticsLevel::kWarning;
  bool high = true;  // above the high threshold (else below the low one)
  double value = 0;
  double threshold = 0;
  bool operator==(const OpticsViolation&) const = default;
};

struct OpticsStatus {
  std::vector<OpticsViolation> violations;
  std::vector<int> dark_lanes;  // active lanes without light while another lane has it
};

// A lane is dark 10 dB below the module's low rx power alarm threshold, or below this (1 uW,
// -30 dBm) when the module has no threshold of its own; "holding" lanes are at or above the low
// warning threshold (or 1 uW).
inline constexpr double kDarkLaneWatts = 1e-6;

OpticsStatus EvaluateOptics(const ModuleReading& module);

// Findings for one netdev's module: optics_alarm (critical), optics_warning, optics_lane_dark
// (critical).
std::vector<Finding> OpticsFindings(const std::string& netdev, const OpticsStatus& status);

// "-3.2 dBm" for a power, "52.0 degC", "3.30 V", "6.5 mA": for messages and reports.
std::string FormatOpticsValue(const std::string& quantity, double value);

}  // namespace rocewatch
