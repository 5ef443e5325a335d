#include "link_quality/ethtool_flags.h"

#include <CLI/CLI.hpp>
#include <cctype>

#include "core/duration.h"

namespace rocewatch {

EthtoolFlagValues::EthtoolFlagValues() {
  const EthtoolOptions defaults;
  interval = FormatDuration(defaults.interval);
  optics_interval = FormatDuration(defaults.optics_interval);
  link_quality_window = FormatDuration(defaults.link_quality.window);
  ber_degraded = defaults.link_quality.degraded_ber;
  ber_failing = defaults.link_quality.failing_ber;
  pfc_window = FormatDuration(defaults.pfc.window);
  pfc_storm_fraction = defaults.pfc.storm_fraction;
}

void AddEthtoolFlags(CLI::App& command, EthtoolFlagValues& v) {
  const std::string group = "Link quality, PFC and optics (docs/detection.md)";
  auto add = [&](const std::string& name, auto& value, const std::string& help) {
    std::string env = "ROCEWATCH_" + name.substr(2);
    for (char& c : env) c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
    command.add_option(name, value, help)->envname(env)->group(group)->capture_default_str();
  };
  add("--ethtool-interval", v.interval,
      "How often FEC, link state, pause and driver statistics are read (0: never)");
  add("--optics-interval", v.optics_interval,
      "How often transceiver pages are read over I2C (0: never, the off switch)");
  add("--link-quality-window", v.link_quality_window,
      "Window over which the pre-FEC BER and uncorrectable blocks are measured");
  add("--link-ber-degraded", v.ber_degraded, "Pre-FEC BER at or above which a link is degraded");
  add("--link-ber-failing", v.ber_failing, "Pre-FEC BER at or above which a link is failing");
  add("--pfc-window", v.pfc_window, "Window over which the fraction of time paused is measured");
  add("--pfc-storm-fraction", v.pfc_storm_fraction,
      "Paused at least this fraction of the window: a PFC storm");
}

StatusOr<EthtoolOptions> EthtoolOptionsFromFlags(const EthtoolFlagValues& v) {
  EthtoolOptions options;
  auto duration = [](const char* flag, const std::string& text, Duration& target) -> Status {
    StatusOr<Duration> parsed = ParseDuration(text);
    if (!parsed.ok())
      return Status::InvalidArgument(std::string(flag) + ": " + parsed.status().message());
    if (*parsed < Duration::zero())
      return Status::InvalidArgument(std::string(flag) + " must not be negative");
    target = *parsed;
    return Status::Ok();
  };
  for (Status s :
       {duration("--ethtool-interval", v.interval, options.interval),
        duration("--optics-interval", v.optics_interval, options.optics_interval),
        duration("--link-quality-window", v.link_quality_window, options.link_quality.window),
        duration("--pfc-window", v.pfc_window, options.pfc.window)})
    if (!s.ok()) return s;
  options.enabled = options.interval > Duration::zero();
  if (options.link_quality.window <= Duration::zero() || options.pfc.window <= Duration::zero())
    return Status::InvalidArgument("--link-quality-window and --pfc-window must be positive");
  options.link_quality.min_span =
      std::min(options.link_quality.min_span, options.link_quality.window);
  options.pfc.min_span = std::min(options.pfc.min_span, options.pfc.window);
  if (!(v.ber_degraded > 0 && v.ber_degraded < v.ber_failing && v.ber_failing < 1))
    return Status::InvalidArgument(
        "--link-ber-degraded and --link-ber-failing: need 0 < degraded < failing < 1");
  options.link_quality.degraded_ber = v.ber_degraded;
  options.link_quality.failing_ber = v.ber_failing;
  if (!(v.pfc_storm_fraction > 0 && v.pfc_storm_fraction <= 1))
    return Status::InvalidArgument("--pfc-storm-fraction must be in (0, 1]");
  options.pfc.storm_fraction = v.pfc_storm_fraction;
  options.pfc.clear_fraction = std::min(options.pfc.clear_fraction, v.pfc_storm_fraction / 2);
  return options;
}

}  // namespace rocewatch
