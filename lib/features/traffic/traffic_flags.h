#pragma once
// The `rocewatch run --traffic-*` flags (docs/detection.md, "Flags"): declared on a CLI11
// command, then turned into validated TrafficOptions. Each flag is also read from its environment
// variable ROCEWATCH_TRAFFIC_<NAME>.

#include <string>

#include "core/status.h"
#include "traffic/traffic_options.h"

namespace CLI {
class App;
}

namespace rocewatch {

// The flags as typed (durations as text); defaults are those of TrafficOptions.
struct TrafficFlagValues {
  TrafficFlagValues();
  double active_rate;
  double stop_fraction;
  std::string collapse_after;
  std::string node_stop_window;
  std::string forget_after;
  double degraded_fraction;
  double sibling_fraction;
  std::string degraded_after;
  std::string fluctuation_window;
  double fluctuation_jitter;
  double fluctuation_vs_siblings;
  size_t baseline_samples;
  std::string error_window;
};

// Declares the flags on `command`; `values` must outlive its parsing. Never throws for a command
// that has no --traffic-* flags yet.
void AddTrafficFlags(CLI::App& command, TrafficFlagValues& values);

// InvalidArgument naming the flag for a malformed duration or an inconsistent set of values.
StatusOr<TrafficOptions> TrafficOptionsFromFlags(const TrafficFlagValues& values);

}  // namespace rocewatch
