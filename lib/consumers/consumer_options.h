#pragma once
// The tunables of consumer tracking (`rocewatch run --consumer-*`, `--kubelet-*`; docs/cli.md).

#include <string>

#include "core/clock.h"

namespace rocewatch {

struct ConsumerOptions {
  // How often the daemon looks for new consumers and for consumers that exited (incremental
  // procfs scan, kubelet List). 0 disables consumer tracking: every device's consumers are
  // unknown and the traffic detector keeps the rules that need no consumer knowledge.
  Duration scan_interval = std::chrono::seconds(10);
  // A process looked at before is looked at again after this long.
  Duration recheck_after = std::chrono::minutes(30);
  // Full re-scans asked for by the traffic detector (traffic no known consumer explains) happen at
  // most this often.
  Duration min_full_scan_interval = std::chrono::minutes(1);
  // The kubelet's pod-resources socket; empty: default under the host root; "none": not used.
  std::string kubelet_socket;
  // Deadline of one kubelet call (connect included).
  Duration kubelet_timeout = std::chrono::seconds(2);
};

}  // namespace rocewatch
