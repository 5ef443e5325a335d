#include "support/daemon_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "support/net_namespace.h"
#include "support/temp_dir.h"

namespace rocewatch {

int FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

StatusOr<std::unique_ptr<DaemonProcess>> DaemonProcess::Start(const std::vector<std::string>& args,
                                                              const std::string& netns,
                                                              std::chrono::milliseconds startup) {
  std::unique_ptr<DaemonProcess> daemon(new DaemonProcess());
  daemon->netns_ = netns;
  daemon->port_ = FreeLoopbackPort();
  std::string log_template = TestTempBase() + "/rocewatch-daemon-XXXXXX.log";
  int log_fd = mkstemps(log_template.data(), 4);
  if (log_fd < 0) return Status::FromErrno(errno, "mkstemps " + log_template);
  daemon->log_path_ = log_template;

  std::vector<std::string> argv;
  if (!netns.empty()) argv = {"ip", "netns", "exec", netns};
  argv.push_back(ROCEWATCH_BINARY);
  argv.push_back("run");
  argv.push_back("--listen=127.0.0.1:" + std::to_string(daemon->port_));
  // Tests run side by side: no daemon binds the default local socket unless a test asks.
  bool socket_given = false;
  for (const std::string& arg : args) socket_given |= arg.rfind("--api-socket", 0) == 0;
  if (!socket_given) argv.push_back("--api-socket=");
  argv.insert(argv.end(), args.begin(), args.end());

  pid_t pid = fork();
  if (pid < 0) return Status::FromErrno(errno, "fork");
  if (pid == 0) {
    dup2(log_fd, STDERR_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  close(log_fd);
  daemon->pid_ = pid;

  const auto deadline = std::chrono::steady_clock::now() + startup;
  while (std::chrono::steady_clock::now() < deadline) {
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      daemon->pid_ = -1;
      return Status::Unavailable("rocewatch exited during startup: " + daemon->ReadLog());
    }
    StatusOr<HttpResponse> health = daemon->Get("/healthz");
    if (health.ok() && health->status == 200) return daemon;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::Unavailable("rocewatch did not answer /healthz in time: " + daemon->ReadLog());
}

DaemonProcess::~DaemonProcess() {
  Stop(std::chrono::seconds(3));
  if (!log_path_.empty()) unlink(log_path_.c_str());
}

std::string DaemonProcess::ReadLog() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

StatusOr<HttpResponse> DaemonProcess::Get(const std::string& path) const {
  int port = port_;
  StatusOr<HttpResponse> response = Status::Internal("not run");
  Status entered = RunInNamedNamespace(
      netns_, [&] { response = HttpGet("127.0.0.1", port, path, std::chrono::seconds(3)); });
  if (!entered.ok()) return entered;
  return response;
}

StatusOr<std::string> DaemonProcess::Scrape() const {
  StatusOr<HttpResponse> response = Get("/metrics");
  if (!response.ok()) return response.status();
  if (response->status != 200)
    return Status::IoError("/metrics answered " + std::to_string(response->status));
  return response->body;
}

bool DaemonProcess::Signal(int signo) const { return pid_ > 0 && kill(pid_, signo) == 0; }

std::optional<int> DaemonProcess::WaitForExit(std::chrono::milliseconds bound) {
  if (pid_ <= 0) return std::nullopt;
  const auto deadline = std::chrono::steady_clock::now() + bound;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

int DaemonProcess::Stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return 0;
  kill(pid_, SIGTERM);
  if (std::optional<int> status = WaitForExit(grace)) return *status;
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return -SIGKILL;
}

}  // namespace rocewatch
