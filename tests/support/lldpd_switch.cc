#include "support/lldpd_switch.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "support/net_namespace.h"

namespace rocewatch {

StatusOr<std::unique_ptr<LldpdSwitch>> LldpdSwitch::Start(const std::string& netns,
                                                          const std::string& interface,
                                                          const LldpdSwitchConfig& config) {
  if (RunShell("command -v lldpd >/dev/null && command -v lldpcli >/dev/null") != 0)
    return Status::Unavailable("lldpd is not installed (scripts/install-deps.sh e2e)");
  // Serialize with every other test's lldpd (released by the destructor, or on an early return).
  const int lock = open("/tmp/rocewatch-lldpd-test.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (lock < 0) return Status::FromErrno(errno, "open the lldpd test lock");
  if (flock(lock, LOCK_EX) != 0) {
    close(lock);
    return Status::FromErrno(errno, "flock the lldpd test lock");
  }
  static int instances = 0;
  std::string socket =
      "/tmp/rw-lldpd-" + std::to_string(getpid()) + "-" + std::to_string(instances++) + ".sock";
  unlink(socket.c_str());
  std::string log = socket + ".log";
  // The configuration goes in through -O: lldpd stays paused until lldpcli has applied the file
  // and resumed it, so even its first frame carries the name, the port ID and the PFC TLV. (Set
  // through lldpcli after the start, the first frames raced the configuration.)
  std::string conf = socket + ".conf";
  {
    std::string text = "configure system hostname " + config.hostname +
                       "\nconfigure system capabilities enabled bridge,router"
                       "\nconfigure lldp portidsubtype ifname"
                       "\nconfigure lldp tx-interval 1\n";
    if (config.pfc_enabled) {
      char bitmap[8];
      std::snprintf(bitmap, sizeof(bitmap), "%02x", *config.pfc_enabled);
      text += std::string("configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,") +
              bitmap + "\n";
    }
    FILE* f = std::fopen(conf.c_str(), "w");
    if (f == nullptr) {
      close(lock);
      return Status::FromErrno(errno, "write " + conf);
    }
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(lock);
    return Status::FromErrno(errno, "fork");
  }
  if (pid == 0) {
    setpgid(0, 0);
    FILE* out = freopen(log.c_str(), "w", stderr);
    (void)out;
    execlp("ip", "ip", "netns", "exec", netns.c_str(), "lldpd", "-d", "-I", interface.c_str(), "-u",
           socket.c_str(), "-O", conf.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  std::unique_ptr<LldpdSwitch> lldpd(new LldpdSwitch(netns, socket, pid, lock));
  struct stat st;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stat(socket.c_str(), &st) != 0) {
    if (std::chrono::steady_clock::now() > deadline)
      return Status::Unavailable("lldpd did not open its socket in 10 s (log: " + log + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return lldpd;
}

Status LldpdSwitch::Configure(const std::string& command) const {
  std::string output;
  std::string line = "ip netns exec " + netns_ + " lldpcli -u " + socket_ + " " + command + " 2>&1";
  if (RunShell(line, &output) != 0) return Status::IoError(line + ": " + output);
  return Status::Ok();
}

LldpdSwitch::~LldpdSwitch() {
  kill(-pid_, SIGTERM);  // lldpd sends its shutdown LLDPDU (TTL 0)
  int status = 0;
  bool reaped = false;
  for (int i = 0; i < 100 && !reaped; ++i) {
    reaped = waitpid(pid_, &status, WNOHANG) == pid_;
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-pid_, SIGKILL);  // the rest of the group (lldpd's privilege-separated child)
  if (!reaped) waitpid(pid_, &status, 0);
  unlink(socket_.c_str());
  unlink((socket_ + ".conf").c_str());
  close(lock_);
}

}  // namespace rocewatch
