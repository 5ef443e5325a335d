#pragma once
// The tunables of the traffic detector, with their defaults. docs/detection.md explains each
// default; `rocewatch run --traffic-*` flags set them.

#include <cstddef>
#include <string>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

struct TrafficOptions {
  // A port carrying less than this (tx+rx, bytes/s) carries no traffic. A training rail moves
  // gigabytes per second; an unused RoCE port moves nothing (mlx5 counts RoCE traffic only).
  double active_rate = 1e6;
  // A port below this fraction of its baseline is stopped ("near zero") even above active_rate.
  double stop_fraction = 0.05;

  // collapsed: stopped for this long while at least one sibling rail carries traffic. With a 1 s
  // poll, the drop shows in the next one or two rates: detection within 5 s.
  Duration collapse_after = std::chrono::seconds(3);
  // A checkpoint reaches the rails one after the other. A rail collapsed against its still
  // active siblings is withdrawn (idle again: the whole node paused) when every rail of the node
  // stopped within this spread of the rail's own stop and the node has then been silent for this
  // long too (a gap between a job's bursts is no pause). A rail that stopped longer than this
  // before the last of its siblings stays collapsed (it died, then the job stalled). 0 disables
  // the withdrawal. REQUIRES: 0, or at least collapse_after and shorter than node_stop_window
  // (when that is not 0).
  Duration checkpoint_spread = std::chrono::seconds(15);
  // collapsed: every rail of the node stopped for this long (ByteRobust: "0 RDMA traffic within
  // 10 minutes"). Shorter stops are pauses (checkpoints) and read idle. 0 disables the rule.
  Duration node_stop_window = std::chrono::minutes(10);
  // After the whole node carried nothing for this long, baselines are forgotten and every port is
  // idle again: the job has ended. 0 never forgets. REQUIRES: 0 or > node_stop_window.
  Duration forget_after = std::chrono::hours(1);

  // degraded (level): below this fraction of its own baseline ...
  double degraded_fraction = 0.5;
  // ... and its rate/baseline ratio below this fraction of the median ratio of its active sibling
  // rails (so a job that slows down on every rail is not a fault) ...
  double sibling_fraction = 0.7;
  // ... for this long (MegaScale: a significant drop pages a human).
  Duration degraded_after = std::chrono::seconds(5);

  // degraded (fluctuation): the relative jitter of its rate over this window ...
  Duration fluctuation_window = std::chrono::seconds(30);
  // ... above this ...
  double fluctuation_jitter = 0.5;
  // ... and above this multiple of the median jitter of its active sibling rails.
  double fluctuation_vs_siblings = 2.0;

  // The baseline is the median of this many recent active samples taken while the port was
  // normal (300 = 5 minutes at a 1 s poll).
  size_t baseline_samples = 300;
  // At most a day of samples at 1 s: the median costs O(N) per port and poll.
  static constexpr size_t kMaxBaselineSamples = 86400;
  // A baseline exists (and the port can be degraded or collapsed) after this many active samples.
  size_t min_baseline_samples = 10;

  // Error counters that rose within this window are quoted in drop findings.
  Duration error_window = std::chrono::seconds(30);

  // InvalidArgument naming the first bad option (e.g. "--traffic-degraded-fraction must be in
  // (0, 1)"), OK otherwise.
  Status Validate() const;
};

}  // namespace rocewatch
