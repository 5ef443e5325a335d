#pragma once
// When the inventory's failed reads reach the log. A read_failed finding says what failed for as
// long as it fails; the log says when it started, when it changed and when it healed, without a
// line per poll (a file that fails every second would otherwise write one every second):
//  - a warning when reads start failing, or when files fail that the last warning did not name,
//    at most one per `min_interval` (what changed meanwhile is in the next one);
//  - an info line when every read succeeds again after a warning.
// Pure: the poll's outcome and its time in, the line out. Not thread-safe.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/node.h"

namespace rocewatch {

class ReadFailureLog {
 public:
  struct Line {
    bool warning = false;  // false: info
    std::string text;      // terminal-safe: host paths are escaped
  };

  explicit ReadFailureLog(Duration min_interval = std::chrono::minutes(1))
      : min_interval_(min_interval) {}

  // One poll: `failing` whether it had a failed read or an unknown GID table, slot or counter,
  // `errors` its failed reads, `named` the failures it named (at most a few). REQUIRES: `at` does
  // not go back.
  std::optional<Line> Observe(MonoTime at, bool failing, uint64_t errors,
                              const std::vector<ReadFailure>& named);

 private:
  Duration min_interval_;
  bool warned_ = false;                 // a warning was logged and no healing since
  std::set<std::string> warned_paths_;  // the files the warnings named since reads last healed
  std::optional<MonoTime> last_warning_;
};

}  // namespace rocewatch
