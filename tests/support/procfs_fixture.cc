#include "support/procfs_fixture.h"

#include <algorithm>

namespace rocewatch {

ProcfsFixture::ProcfsFixture(bool host_namespace) {
  fs_.AddDir("/host/proc");
  fs_.AddLink("/host/proc/self", "1");
  fs_.AddFile("/host/proc/1/comm", host_namespace ? "systemd\n" : "rocewatch\n");
  fs_.AddDir("/host/proc/1/fd");
  if (host_namespace) {
    fs_.AddFile("/host/proc/2/comm", "kthreadd\n");
    fs_.AddDir("/host/proc/2/fd");
  }
}

std::string ProcfsFixture::ProcessDir(int pid) const { return "/host/proc/" + std::to_string(pid); }

ProcfsFixture& ProcfsFixture::Uverbs(int n, const std::string& device) {
  fs_.AddFile("/host/sys/class/infiniband_verbs/uverbs" + std::to_string(n) + "/ibdev",
              device + "\n");
  return *this;
}

ProcfsFixture& ProcfsFixture::Add(const Process& p) {
  const std::string dir = ProcessDir(p.pid);
  fs_.AddFile(dir + "/comm", p.comm + "\n");
  fs_.AddFile(dir + "/stat", std::to_string(p.pid) + " (" + p.comm +
                                 ") S 1 1 1 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 " +
                                 p.start_time + " 1000000 100 18446744073709551615\n");
  fs_.AddFile(dir + "/cgroup", p.cgroup);
  std::string environ;
  for (const std::string& entry : p.environ) environ += entry + '\0';
  fs_.AddFile(dir + "/environ", environ);
  fs_.AddFile(dir + "/maps", p.maps);
  fs_.AddDir(dir + "/fd");
  for (size_t i = 0; i < p.fd_targets.size(); ++i)
    fs_.AddLink(dir + "/fd/" + std::to_string(i + 3), p.fd_targets[i]);
  return *this;
}

ProcfsFixture& ProcfsFixture::Consumer(int pid, int uverbs, const std::string& comm,
                                       const std::vector<std::string>& environ,
                                       const std::string& cgroup, const std::string& maps) {
  Process p;
  p.pid = pid;
  p.comm = comm;
  p.environ = environ;
  p.cgroup = cgroup;
  p.maps = maps;
  p.fd_targets = {"/dev/null", "/dev/infiniband/uverbs" + std::to_string(uverbs),
                  "anon_inode:[infinibandevent]", "/dev/infiniband/rdma_cm"};
  return Add(p);
}

void ProcfsFixture::Exit(int pid) { fs_.Remove(ProcessDir(pid)); }

std::string ProcfsFixture::KubepodsCgroup(const std::string& pod_uid,
                                          const std::string& container_id) {
  std::string escaped = pod_uid;
  std::replace(escaped.begin(), escaped.end(), '-', '_');
  return "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + escaped +
         ".slice/cri-containerd-" + container_id + ".scope\n";
}

}  // namespace rocewatch
