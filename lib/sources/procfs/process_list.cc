#include "procfs/process_list.h"

#include "core/text.h"

namespace rocewatch {

std::vector<ProcessEntry> ListProcesses(const FileSystem& fs, const std::string& procfs_root) {
  std::vector<ProcessEntry> processes;
  StatusOr<std::vector<std::string>> names = fs.ListDir(procfs_root);
  if (!names.ok()) return processes;
  for (const std::string& name : *names) {
    long long pid = 0;
    if (!ParseInteger(name, &pid) || pid <= 0 || pid > 0x7fffffff) continue;
    ProcessEntry entry{static_cast<int>(pid), ""};
    StatusOr<std::string> comm = fs.ReadFile(JoinPath(JoinPath(procfs_root, name), "comm"), 256);
    if (comm.ok()) entry.comm = std::string(Trim(*comm));
    processes.push_back(std::move(entry));
  }
  return processes;  // ListDir sorts naturally: ascending pid
}

std::optional<ProcessEntry> FindProcess(const std::vector<ProcessEntry>& processes,
                                        std::string_view comm) {
  for (const ProcessEntry& p : processes)
    if (p.comm == comm) return p;
  return std::nullopt;
}

}  // namespace rocewatch
