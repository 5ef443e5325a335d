#pragma once
// Where the host's files are, after --host-root and --sysfs-root (docs/cli.md). In a pod the
// host root is mounted at /host, so sysfs is /host/sys, procfs /host/proc and so on.

#include <string>

namespace rocewatch {

struct HostPaths {
  std::string host_root = "/";
  std::string sysfs_root = "/sys";  // --sysfs-root, default <host-root>/sys
  std::string procfs_root = "/proc";
  std::string etc_root = "/etc";
  std::string run_root = "/run";

  // Paths for a host root, with an optional sysfs override (empty: <host_root>/sys).
  static HostPaths ForRoots(const std::string& host_root, const std::string& sysfs_override = "");

  // Whether `host_root` is this host's own root ("/" or empty): the live host, where nothing
  // recorded by `collect` is to be looked for.
  static bool IsLiveRoot(const std::string& host_root) {
    return host_root.empty() || host_root == "/";
  }

  // <sysfs_root>/class/infiniband
  std::string InfinibandClassDir() const { return sysfs_root + "/class/infiniband"; }
  // <sysfs_root>/class/net
  std::string NetClassDir() const { return sysfs_root + "/class/net"; }
};

}  // namespace rocewatch
