#include "traffic/traffic_flags.h"

#include <CLI/CLI.hpp>
#include <cctype>

#include "core/duration.h"

namespace rocewatch {

TrafficFlagValues::TrafficFlagValues() {
  const TrafficOptions defaults;
  active_rate = defaults.active_rate;
  stop_fraction = defaults.stop_fraction;
  collapse_after = FormatDuration(defaults.collapse_after);
  node_stop_window = FormatDuration(defaults.node_stop_window);
  forget_after = FormatDuration(defaults.forget_after);
  degraded_fraction = defaults.degraded_fraction;
  sibling_fraction = defaults.sibling_fraction;
  degraded_after = FormatDuration(defaults.degraded_after);
  fluctuation_window = FormatDuration(defaults.fluctuation_window);
  fluctuation_jitter = defaults.fluctuation_jitter;
  fluctuation_vs_siblings = defaults.fluctuation_vs_siblings;
  baseline_samples = defaults.baseline_samples;
  error_window = FormatDuration(defaults.error_window);
}

void AddTrafficFlags(CLI::App& command, TrafficFlagValues& v) {
  const std::string group = "Traffic detection (docs/detection.md)";
  auto add = [&](const std::string& name, auto& value, const std::string& help) {
    std::string env = "ROCEWATCH_" + name.substr(2);
    for (char& c : env) c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
    command.add_option(name, value, help)->envname(env)->group(group)->capture_default_str();
  };
  add("--traffic-active-rate", v.active_rate,
      "Bytes/s (tx+rx) below which a port carries no traffic");
  add("--traffic-stop-fraction", v.stop_fraction,
      "Below this fraction of its baseline a port is stopped (near zero)");
  add("--traffic-collapse-after", v.collapse_after,
      "A rail stopped this long while a sibling rail carries traffic is collapsed");
  add("--traffic-node-stop-window", v.node_stop_window,
      "Every rail stopped this long: collapsed (shorter stops are pauses; 0 disables)");
  add("--traffic-forget-after", v.forget_after,
      "Every rail stopped this long: baselines are forgotten, ports idle (0 never)");
  add("--traffic-degraded-fraction", v.degraded_fraction,
      "Degraded: below this fraction of its own baseline ...");
  add("--traffic-sibling-fraction", v.sibling_fraction,
      "... and below this fraction of its sibling rails' median rate/baseline ratio");
  add("--traffic-degraded-after", v.degraded_after,
      "How long a drop or a fluctuation must hold before the rail is degraded");
  add("--traffic-fluctuation-window", v.fluctuation_window,
      "Window over which a rail's rate fluctuation (relative jitter) is measured");
  add("--traffic-fluctuation-jitter", v.fluctuation_jitter,
      "Degraded: relative jitter above this ...");
  add("--traffic-fluctuation-vs-siblings", v.fluctuation_vs_siblings,
      "... and above this multiple of the sibling rails' median jitter");
  add("--traffic-baseline-samples", v.baseline_samples,
      "Active samples in the rolling median that is a rail's baseline");
  add("--traffic-error-window", v.error_window,
      "Error counters rising within this window are quoted in traffic findings");
}

StatusOr<TrafficOptions> TrafficOptionsFromFlags(const TrafficFlagValues& v) {
  TrafficOptions options;
  struct DurationFlag {
    const char* name;
    const std::string& text;
    Duration& target;
  };
  const DurationFlag durations[] = {
      {"--traffic-collapse-after", v.collapse_after, options.collapse_after},
      {"--traffic-node-stop-window", v.node_stop_window, options.node_stop_window},
      {"--traffic-forget-after", v.forget_after, options.forget_after},
      {"--traffic-degraded-after", v.degraded_after, options.degraded_after},
      {"--traffic-fluctuation-window", v.fluctuation_window, options.fluctuation_window},
      {"--traffic-error-window", v.error_window, options.error_window},
  };
  for (const DurationFlag& flag : durations) {
    StatusOr<Duration> parsed = ParseDuration(flag.text);
    if (!parsed.ok()) {
      return Status::InvalidArgument(std::string(flag.name) + ": " + parsed.status().message());
    }
    flag.target = *parsed;
  }
  options.active_rate = v.active_rate;
  options.stop_fraction = v.stop_fraction;
  options.degraded_fraction = v.degraded_fraction;
  options.sibling_fraction = v.sibling_fraction;
  options.fluctuation_jitter = v.fluctuation_jitter;
  options.fluctuation_vs_siblings = v.fluctuation_vs_siblings;
  options.baseline_samples = v.baseline_samples;
  Status valid = options.Validate();
  if (!valid.ok()) return valid;
  return options;
}

}  // namespace rocewatch
