#include "inventory/read_failure_log.h"

#include <algorithm>

#include "core/terminal_text.h"
#include "core/text.h"

namespace rocewatch {

std::optional<ReadFailureLog::Line> ReadFailureLog::Observe(MonoTime at, bool failing,
                                                            uint64_t errors,
                                                            const std::vector<ReadFailure>& named) {
  if (!failing) {
    if (!warned_) return std::nullopt;
    warned_ = false;
    warned_paths_.clear();
    return Line{false, "inventory: every sysfs read succeeds again"};
  }
  std::set<std::string> paths;
  for (const ReadFailure& failure : named) paths.insert(failure.path);
  const bool news =
      !std::includes(warned_paths_.begin(), warned_paths_.end(), paths.begin(), paths.end());
  if (warned_ && !news) return std::nullopt;
  if (last_warning_ && at - *last_warning_ < min_interval_) return std::nullopt;
  last_warning_ = at;
  warned_ = true;
  warned_paths_.insert(paths.begin(), paths.end());
  std::string text = "inventory: a GID table, GID slot or counter is still unknown";
  if (errors > 0) {
    std::vector<std::string> described;
    for (const ReadFailure& failure : named)
      described.push_back(TerminalSafe(failure.path) + ": " + ErrnoText(failure.sys_errno));
    text = "inventory: " + std::to_string(errors) + " sysfs read" + (errors == 1 ? "" : "s") +
           " failed in this poll";
    if (!described.empty()) text += " (" + JoinList(described, 4) + ")";
  }
  return Line{true, text + "; the read_failed finding says what it hides"};
}

}  // namespace rocewatch
