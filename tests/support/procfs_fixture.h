#pragma once
// A node's processes and RDMA verbs devices in a FakeFileSystem, for consumer-scan tests and
// benchmarks: <proc>/<pid>/{comm,stat,cgroup,environ,maps,fd/N} and
// <sys>/class/infiniband_verbs/uverbsN/ibdev. The process namespace is the host's (pid 2 is
// kthreadd) unless the test says otherwise.

#include <string>
#include <vector>

#include "os/host_paths.h"
#include "support/fake_file_system.h"

namespace rocewatch {

class ProcfsFixture {
 public:
  struct Process {
    int pid = 0;
    std::string comm = "python3";
    std::string cgroup = "0::/user.slice/user-1000.slice/session-1.scope\n";
    std::vector<std::string> environ;  // "K=V"
    std::string maps;                  // content of maps
    std::vector<std::string> fd_targets = {"/dev/null", "socket:[1234]"};
    std::string start_time = "4242";
  };

  explicit ProcfsFixture(bool host_namespace = true);

  // A process that holds no RDMA device.
  static Process Plain(int pid, const std::string& comm = "python3") {
    Process p;
    p.pid = pid;
    p.comm = comm;
    return p;
  }

  HostPaths paths() const { return HostPaths::ForRoots("/host"); }
  FakeFileSystem& fs() { return fs_; }

  // /dev/infiniband/uverbs<n> belongs to `device`.
  ProcfsFixture& Uverbs(int n, const std::string& device);
  ProcfsFixture& Add(const Process& process);
  // A process holding uverbs<n> (the fds of a verbs context: the device, plus ordinary files).
  ProcfsFixture& Consumer(int pid, int uverbs, const std::string& comm = "python3",
                          const std::vector<std::string>& environ = {},
                          const std::string& cgroup = "0::/\n", const std::string& maps = "");
  void Exit(int pid);
  std::string ProcessDir(int pid) const;

  // A kubepods cgroup v2 line (systemd driver) for a pod UID and a 64-digit container id.
  static std::string KubepodsCgroup(const std::string& pod_uid, const std::string& container_id);

 private:
  FakeFileSystem fs_;
};

}  // namespace rocewatch
