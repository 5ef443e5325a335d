#include "support/net_namespace.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <thread>

namespace rocewatch {

int RunShell(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0)
    if (output != nullptr) output->append(buf, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

Status Run(const std::string& command) {
  std::string output;
  int rc = RunShell(command, &output);
  if (rc == 0) return Status::Ok();
  return Status::IoError("`" + command + "` exited " + std::to_string(rc) + ": " + output);
}

}  // namespace

StatusOr<std::unique_ptr<NetNamespace>> NetNamespace::Create(const std::string& tag) {
  if (geteuid() != 0) return Status::PermissionDenied("network namespaces need root");
  static std::atomic<int> counter{0};
  std::string name = "rw-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  Status s = Run("ip netns add " + name);
  if (!s.ok()) return Status::Unavailable(s.message());
  std::unique_ptr<NetNamespace> ns(new NetNamespace(name));
  s = ns->Ip("link set lo up");
  if (!s.ok()) return Status::Unavailable(s.message());
  return ns;
}

NetNamespace::~NetNamespace() { (void)Run("ip netns del " + name_); }

Status NetNamespace::Ip(const std::string& args) const {
  return Run("ip -n " + name_ + " " + args);
}

Status NetNamespace::IpBatch(const std::vector<std::string>& commands) const {
  std::string script;
  for (const std::string& c : commands) script += c + "\n";
  FILE* pipe = popen(("ip -n " + name_ + " -force -batch - >/dev/null 2>&1").c_str(), "w");
  if (pipe == nullptr) return Status::IoError("cannot start ip -batch");
  fwrite(script.data(), 1, script.size(), pipe);
  int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Status::IoError("ip -batch failed with status " + std::to_string(status));
  return Status::Ok();
}

Status NetNamespace::AddVethPair(const std::string& a, const std::string& b) const {
  for (const std::string& args : {"link add " + a + " type veth peer name " + b,
                                  "link set " + a + " up", "link set " + b + " up"}) {
    Status s = Ip(args);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status NetNamespace::RunInside(const std::function<void()>& fn) const {
  return RunInNamedNamespace(name_, fn);
}

Status NetNamespace::RunWithSysfs(
    const std::function<void(const std::string& sysfs_root)>& fn) const {
  Status result;
  Status entered = RunInside([&] {
    // A private mount namespace for this thread alone (it first needs its own fs attributes).
    if (unshare(CLONE_FS) != 0 || unshare(CLONE_NEWNS) != 0) {
      result = Status::FromErrno(errno, "unshare mount namespace");
      return;
    }
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      result = Status::FromErrno(errno, "make / private");
      return;
    }
    char dir[] = "/tmp/rw-sysfs-XXXXXX";
    if (mkdtemp(dir) == nullptr) {
      result = Status::FromErrno(errno, "mkdtemp");
      return;
    }
    if (mount("none", dir, "sysfs", 0, nullptr) != 0) {
      result = Status::FromErrno(errno, std::string("mount -t sysfs none ") + dir);
      rmdir(dir);
      return;
    }
    fn(dir);
    umount2(dir, MNT_DETACH);
    rmdir(dir);
  });
  return entered.ok() ? result : entered;
}

Status RunInNamedNamespace(const std::string& name, const std::function<void()>& fn) {
  if (name.empty()) {
    fn();
    return Status::Ok();
  }
  Status result;
  std::thread thread([&] {
    int fd = open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      result = Status::FromErrno(errno, "/run/netns/" + name);
      return;
    }
    int rc = setns(fd, CLONE_NEWNET);
    int err = errno;
    close(fd);
    if (rc != 0) {
      result = Status::FromErrno(err, "setns " + name);
      return;
    }
    fn();
  });
  thread.join();
  return result;
}

}  // namespace rocewatch
