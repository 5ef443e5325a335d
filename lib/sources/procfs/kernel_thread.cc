#include "procfs/kernel_thread.h"

#include <cerrno>
#include <charconv>
#include <vector>

#include "core/text.h"

namespace rocewatch {

std::optional<ProcessStat> ParseProcessStat(std::string_view text) {
  const size_t close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  // After ") ": state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8) flags(9).
  std::vector<std::string> fields = SplitFields(text.substr(close + 1), " ");
  if (fields.size() < 7) return std::nullopt;
  ProcessStat stat;
  const std::string& ppid = fields[1];
  const std::string& flags = fields[6];
  auto [p_end, p_ec] = std::from_chars(ppid.data(), ppid.data() + ppid.size(), stat.ppid);
  auto [f_end, f_ec] = std::from_chars(flags.data(), flags.data() + flags.size(), stat.flags);
  if (p_ec != std::errc() || p_end != ppid.data() + ppid.size() || f_ec != std::errc() ||
      f_end != flags.data() + flags.size())
    return std::nullopt;
  return stat;
}

bool IsKernelThreadStat(int pid, const ProcessStat& stat) {
  return pid == kKthreaddPid || stat.ppid == kKthreaddPid ||
         (stat.flags & kProcessFlagKernelThread) != 0;
}

bool IsKernelThread(const FileSystem& fs, const std::string& procfs_root, int pid) {
  StatusOr<std::string> text =
      fs.ReadFile(JoinPath(JoinPath(procfs_root, std::to_string(pid)), "stat"), 4096);
  if (!text.ok()) return false;
  std::optional<ProcessStat> stat = ParseProcessStat(*text);
  return stat && IsKernelThreadStat(pid, *stat);
}

bool IsKernelThreadEnvironError(const Status& status) {
  return !status.ok() && status.sys_errno() == ESRCH;
}

}  // namespace rocewatch
