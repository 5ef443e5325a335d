#include "os/host_paths.h"

namespace rocewatch {
namespace {
std::string Under(const std::string& root, const std::string& dir) {
  if (root.empty() || root == "/") return dir;
  std::string r = root;
  while (r.size() > 1 && r.back() == '/') r.pop_back();
  return r + dir;
}
}  // namespace

HostPaths HostPaths::ForRoots(const std::string& host_root, const std::string& sysfs_override) {
  HostPaths paths;
  paths.host_root = host_root.empty() ? "/" : host_root;
  paths.sysfs_root = sysfs_override.empty() ? Under(paths.host_root, "/sys") : sysfs_override;
  paths.procfs_root = Under(paths.host_root, "/proc");
  paths.etc_root = Under(paths.host_root, "/etc");
  paths.run_root = Under(paths.host_root, "/run");
  return paths;
}

}  // namespace rocewatch
