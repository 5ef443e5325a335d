#include "traffic/traffic_options.h"

#include <algorithm>
#include <cmath>

namespace rocewatch {
namespace {

bool InOpenUnitInterval(double v) { return std::isfinite(v) && v > 0 && v < 1; }

}  // namespace

Status TrafficOptions::Validate() const {
  auto bad = [](const std::string& what) { return Status::InvalidArgument(what); };
  if (!std::isfinite(active_rate) || active_rate <= 0) {
    return bad("--traffic-active-rate must be a positive number of bytes per second");
  }
  if (!InOpenUnitInterval(stop_fraction)) return bad("--traffic-stop-fraction must be in (0, 1)");
  if (!InOpenUnitInterval(degraded_fraction)) {
    return bad("--traffic-degraded-fraction must be in (0, 1)");
  }
  if (stop_fraction >= degraded_fraction) {
    return bad("--traffic-stop-fraction must be below --traffic-degraded-fraction");
  }
  if (!InOpenUnitInterval(sibling_fraction)) {
    return bad("--traffic-sibling-fraction must be in (0, 1)");
  }
  if (!std::isfinite(fluctuation_jitter) || fluctuation_jitter <= 0) {
    return bad("--traffic-fluctuation-jitter must be positive");
  }
  if (!std::isfinite(fluctuation_vs_siblings) || fluctuation_vs_siblings < 1) {
    return bad("--traffic-fluctuation-vs-siblings must be at least 1");
  }
  if (collapse_after <= Duration::zero()) return bad("--traffic-collapse-after must be positive");
  if (degraded_after <= Duration::zero()) return bad("--traffic-degraded-after must be positive");
  if (fluctuation_window <= Duration::zero()) {
    return bad("--traffic-fluctuation-window must be positive");
  }
  if (error_window <= Duration::zero()) return bad("--traffic-error-window must be positive");
  if (node_stop_window < Duration::zero() || forget_after < Duration::zero()) {
    return bad("--traffic-node-stop-window and --traffic-forget-after must not be negative");
  }
  if (forget_after > Duration::zero() && forget_after <= node_stop_window) {
    return bad("--traffic-forget-after must be longer than --traffic-node-stop-window (or 0)");
  }
  if (checkpoint_spread < Duration::zero()) {
    return bad("--traffic-checkpoint-spread must not be negative");
  }
  if (checkpoint_spread > Duration::zero() && checkpoint_spread < collapse_after) {
    return bad("--traffic-checkpoint-spread must be 0 (off) or at least --traffic-collapse-after");
  }
  if (checkpoint_spread > Duration::zero() && node_stop_window > Duration::zero() &&
      checkpoint_spread >= node_stop_window) {
    return bad("--traffic-checkpoint-spread must be shorter than --traffic-node-stop-window");
  }
  if (min_baseline_samples < 1 || baseline_samples < min_baseline_samples ||
      baseline_samples > kMaxBaselineSamples) {
    return bad("--traffic-baseline-samples must be between " +
               std::to_string(std::max<size_t>(min_baseline_samples, 1)) + " and " +
               std::to_string(kMaxBaselineSamples));
  }
  return Status::Ok();
}

}  // namespace rocewatch
