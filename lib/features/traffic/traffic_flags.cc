#include "traffic/traffic_flags.h"

namespace rocewatch {

void AddTrafficFlags(FlagTable& flags, TrafficOptions& o) {
  flags.Group("Traffic detection (docs/detection.md)")
      .Number("--traffic-active-rate", "Bytes/s (tx+rx) below which a port carries no traffic",
              o.active_rate)
      .Number("--traffic-stop-fraction",
              "Below this fraction of its baseline a port is stopped (near zero)", o.stop_fraction)
      .AnyDuration("--traffic-collapse-after",
                   "A rail stopped this long while a sibling rail carries traffic is collapsed",
                   o.collapse_after)
      .AnyDuration("--traffic-checkpoint-spread",
                   "Every rail stopping within this spread is a pause (a checkpoint): a rail "
                   "collapsed meanwhile is withdrawn (0 disables)",
                   o.checkpoint_spread)
      .AnyDuration("--traffic-node-stop-window",
                   "Every rail stopped this long: collapsed (shorter stops are pauses; 0 disables)",
                   o.node_stop_window)
      .AnyDuration("--traffic-forget-after",
                   "Every rail stopped this long: baselines are forgotten, ports idle (0 never)",
                   o.forget_after)
      .Number("--traffic-degraded-fraction",
              "Degraded: below this fraction of its own baseline ...", o.degraded_fraction)
      .Number("--traffic-sibling-fraction",
              "... and below this fraction of its sibling rails' median rate/baseline ratio",
              o.sibling_fraction)
      .AnyDuration("--traffic-degraded-after",
                   "How long a drop or a fluctuation must hold before the rail is degraded",
                   o.degraded_after)
      .AnyDuration("--traffic-fluctuation-window",
                   "Window over which a rail's rate fluctuation (relative jitter) is measured",
                   o.fluctuation_window)
      .Number("--traffic-fluctuation-jitter", "Degraded: relative jitter above this ...",
              o.fluctuation_jitter)
      .Number("--traffic-fluctuation-vs-siblings",
              "... and above this multiple of the sibling rails' median jitter",
              o.fluctuation_vs_siblings)
      .Count("--traffic-baseline-samples",
             "Active samples in the rolling median that is a rail's baseline", o.baseline_samples)
      .AnyDuration("--traffic-error-window",
                   "Error counters rising within this window are quoted in traffic findings",
                   o.error_window)
      .Group("");
}

Status CheckTrafficFlags(const TrafficOptions& options) { return options.Validate(); }

}  // namespace rocewatch
