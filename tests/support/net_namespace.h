#pragma once
// A network namespace a test creates for itself (`ip netns add`), with veth pairs inside, removed
// with everything in it when the object goes (also when the test fails). Needs root; Create()
// reports why it cannot, so that the test can GTEST_SKIP.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

class NetNamespace {
 public:
  // Creates a namespace named "rw-<tag>-<pid>-<n>" with its loopback up. Errors:
  // PermissionDenied without root, Unavailable when namespaces or `ip` do not work.
  static StatusOr<std::unique_ptr<NetNamespace>> Create(const std::string& tag);
  ~NetNamespace();
  NetNamespace(const NetNamespace&) = delete;
  NetNamespace& operator=(const NetNamespace&) = delete;

  const std::string& name() const { return name_; }

  // Runs `ip -n <name> <args>`. Errors carry the command and its output.
  Status Ip(const std::string& args) const;
  // Runs many ip commands in one process (`ip -n <name> -force -batch -`), fast enough to outrun
  // a netlink reader.
  Status IpBatch(const std::vector<std::string>& commands) const;
  // Creates a veth pair `a` <-> `b` inside, both up.
  Status AddVethPair(const std::string& a, const std::string& b) const;

  // Runs `fn` on a thread that has entered the namespace (setns), and waits for it. Sockets
  // opened there stay bound to the namespace when used from other threads.
  Status RunInside(const std::function<void()>& fn) const;
  // Runs `fn` on a thread inside the namespace that has a mount namespace of its own, in which a
  // sysfs of this network namespace is mounted at a fresh directory (`mount -t sysfs`): its
  // class/net/ lists this namespace's netdevs, with the kernel's real attribute semantics. The
  // mount goes away with the thread; nothing is mounted in the test's own mount namespace.
  // Errors: the failing unshare/mount (as IoError with the errno) or the setns of RunInside.
  Status RunWithSysfs(const std::function<void(const std::string& sysfs_root)>& fn) const;
  // A shell prefix that runs a command inside: "ip netns exec <name> ".
  std::string ExecPrefix() const { return "ip netns exec " + name_ + " "; }

 private:
  explicit NetNamespace(std::string name) : name_(std::move(name)) {}
  std::string name_;
};

// Runs `fn` on a thread that has entered the named namespace (/run/netns/<name>), and waits for it.
// An empty name runs `fn` on the calling thread.
Status RunInNamedNamespace(const std::string& name, const std::function<void()>& fn);

// Runs a shell command; returns its exit status and appends its stdout and stderr to `output`.
int RunShell(const std::string& command, std::string* output = nullptr);

}  // namespace rocewatch
