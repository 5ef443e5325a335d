#pragma once
// The tunables of consumer tracking (`rocewatch run --consumer-*`, `--kubelet-*`; docs/cli.md).

#include <string>

#include "core/clock.h"

namespace rocewatch {

struct ConsumerOptions {
  // How often the daemon looks for new consumers and for consumers that exited (incremental
  // procfs scan, kubelet List). 0 disables consumer tracking: every device's consumers are
  // unknown and the traffic detector keeps the rules that need no consumer knowledge.
  Duration scan_interval = std::chrono::seconds(15);
  // A process that held no device is looked at again after this long (spread over its second
  // half); one that held a device after consumer_recheck_after.
  Duration recheck_after = std::chrono::hours(1);
  Duration consumer_recheck_after = std::chrono::minutes(5);
  // Full re-scans asked for by the traffic detector (traffic no known consumer explains) happen at
  // most this often; each one that finds nothing new doubles the wait, up to recheck_after.
  Duration min_full_scan_interval = std::chrono::minutes(1);
  // The kubelet is asked at the first scan, at every requested full scan, and otherwise at most
  // this often (a call costs about 0.9 ms of CPU: docs/benchmarks.md). Pods come and go with the
  // scheduler, which the kubelet's answer follows; a new job's traffic asks for a full scan, and
  // with it the kubelet, at once.
  Duration kubelet_interval = std::chrono::minutes(1);
  // The kubelet's pod-resources socket; empty: default under the host root; "none": not used.
  std::string kubelet_socket;
  // Deadline of one kubelet call (connect included).
  Duration kubelet_timeout = std::chrono::seconds(2);
};

}  // namespace rocewatch
