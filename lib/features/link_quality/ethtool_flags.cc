#include "link_quality/ethtool_flags.h"

#include <algorithm>

namespace rocewatch {

void AddEthtoolFlags(FlagTable& flags, EthtoolOptions& o) {
  flags.Group("Link quality, PFC and optics (docs/detection.md)")
      .AnyDuration("--ethtool-interval",
                   "How often FEC, link state, pause and driver statistics are read (0: never)",
                   o.interval)
      .AnyDuration("--optics-interval",
                   "How often transceiver pages are read over I2C (0: never, the off switch)",
                   o.optics_interval)
      .AnyDuration("--link-quality-window",
                   "Window over which the pre-FEC BER and uncorrectable blocks are measured",
                   o.link_quality.window)
      .Number("--link-ber-degraded", "Pre-FEC BER at or above which a link is degraded",
              o.link_quality.degraded_ber)
      .Number("--link-ber-failing", "Pre-FEC BER at or above which a link is failing",
              o.link_quality.failing_ber)
      .AnyDuration("--pfc-window", "Window over which the fraction of time paused is measured",
                   o.pfc.window)
      .Number("--pfc-storm-fraction", "Paused at least this fraction of the window: a PFC storm",
              o.pfc.storm_fraction)
      .Group("");
}

Status FinishEthtoolFlags(EthtoolOptions& options) {
  options.enabled = options.interval > Duration::zero();
  if (options.link_quality.window <= Duration::zero() || options.pfc.window <= Duration::zero())
    return Status::InvalidArgument("--link-quality-window and --pfc-window must be positive");
  const EthtoolOptions defaults;
  options.link_quality.min_span =
      std::min(defaults.link_quality.min_span, options.link_quality.window);
  options.pfc.min_span = std::min(defaults.pfc.min_span, options.pfc.window);
  const double degraded = options.link_quality.degraded_ber;
  const double failing = options.link_quality.failing_ber;
  if (!(degraded > 0 && degraded < failing && failing < 1))
    return Status::InvalidArgument(
        "--link-ber-degraded and --link-ber-failing: need 0 < degraded < failing < 1");
  const double storm = options.pfc.storm_fraction;
  if (!(storm > 0 && storm <= 1))
    return Status::InvalidArgument("--pfc-storm-fraction must be in (0, 1]");
  options.pfc.clear_fraction = std::min(defaults.pfc.clear_fraction, storm / 2);
  return Status::Ok();
}

}  // namespace rocewatch
