#include "procfs/own_process.h"

#include "core/text.h"

namespace rocewatch {

int SelfPid(const FileSystem& fs, const std::string& procfs_root) {
  StatusOr<std::string> self = fs.ReadLink(JoinPath(procfs_root, "self"));
  long long pid = 0;
  if (!self.ok() || !ParseInteger(*self, &pid) || pid <= 0 || pid > 0x7fffffff) return 0;
  return static_cast<int>(pid);
}

bool IsRocewatchProcess(int pid, std::string_view comm, int self_pid) {
  return (self_pid > 0 && pid == self_pid) || comm == "rocewatch";
}

}  // namespace rocewatch
