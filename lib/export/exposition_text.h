#pragma once
// Reads the Prometheus text exposition format (version 0.0.4), as the daemon serves /metrics,
// into samples: what `rocewatch diagnose` takes from a running daemon's detectors (traffic
// baselines and states, link quality, PFC). Comments and HELP/TYPE lines are skipped; timestamps
// are ignored. Pure; never throws.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rocewatch {

struct ExposedSample {
  std::string name;
  std::map<std::string, std::string> labels;  // values unescaped (\\, \", \n)
  double value = 0;                           // NaN, +Inf and -Inf as written
};

// Errors: Corrupt naming the first line that is not a sample.
StatusOr<std::vector<ExposedSample>> ParseExposition(std::string_view text);

// The samples of one family, in order.
std::vector<const ExposedSample*> SamplesNamed(const std::vector<ExposedSample>& samples,
                                               std::string_view name);

}  // namespace rocewatch
