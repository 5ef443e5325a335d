#pragma once
// Writes a fixture host root (the tree --host-root points at) into a temporary directory: netdevs
// under sys/class/net, network manager state and configuration under run/ and etc/, processes
// under proc/ with comm, environ and fd symlinks. Used by the diagnose configuration check tests.

#include <map>
#include <string>
#include <vector>

#include "os/host_paths.h"
#include "support/temp_dir.h"

namespace rocewatch {

class HostRootBuilder {
 public:
  const std::string& root() const { return dir_.path(); }
  HostPaths paths() const { return HostPaths::ForRoots(dir_.path()); }

  // Writes `content` at `host_path` ("/etc/network/interfaces") under the root.
  HostRootBuilder& File(const std::string& host_path, const std::string& content);

  // sys/class/net/<name>/{ifindex,address} and proc/sys/net/ipv6/conf/<name>/keep_addr_on_down.
  HostRootBuilder& Netdev(const std::string& name, int ifindex, const std::string& mac,
                          int keep_addr_on_down = 0);

  // A NetworkManager that runs (pid) and manages the netdev with this ifindex.
  HostRootBuilder& NetworkManagerManages(int ifindex, bool managed = true);
  // A systemd-networkd link state naming `network_file` (written with `network_content`).
  HostRootBuilder& NetworkdManages(int ifindex, const std::string& network_file,
                                   const std::string& network_content,
                                   const std::string& admin_state = "configured");

  // proc/<pid>/{comm,environ,fd/}. `environ` is NUL-separated "K=V" entries; `uverbs` adds an
  // fd symlink to /dev/infiniband/uverbs0.
  HostRootBuilder& Process(int pid, const std::string& comm,
                           const std::vector<std::string>& environ = {}, bool uverbs = false);

 private:
  TempDir dir_;
};

}  // namespace rocewatch
