#pragma once
// Runs the real `rocewatch` binary as a child process for integration and e2e tests: waits for its
// metrics port, scrapes it, stops it with SIGTERM (SIGKILL after a bound) on destruction.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "support/http_client.h"

namespace rocewatch {

class DaemonProcess {
 public:
  // Starts ROCEWATCH_BINARY `run --listen 127.0.0.1:<free port> <args>` (with `--api-socket=`,
  // no local socket, unless `args` give one); stderr goes to a log
  // file (log_path()). Waits until /healthz answers (at most `startup`).
  // If `netns` is not empty the daemon runs inside that network namespace (`ip netns exec`).
  static StatusOr<std::unique_ptr<DaemonProcess>> Start(
      const std::vector<std::string>& args, const std::string& netns = "",
      std::chrono::milliseconds startup = std::chrono::seconds(10));
  ~DaemonProcess();

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  std::string ReadLog() const;

  // GET /metrics (through the namespace when there is one). Errors as HttpGet.
  StatusOr<std::string> Scrape() const;
  StatusOr<HttpResponse> Get(const std::string& path) const;

  // SIGTERM, then wait; returns the exit status (or -signal).
  int Stop(std::chrono::milliseconds grace = std::chrono::seconds(5));
  // Sends `signo` to the daemon (no-op once it has exited). Returns false if kill() failed.
  bool Signal(int signo) const;
  // Waits at most `bound` for the daemon to exit on its own; returns the exit status (or
  // -signal), nullopt if it is still running. After an exit, Stop() is a no-op.
  std::optional<int> WaitForExit(std::chrono::milliseconds bound);

 private:
  DaemonProcess() = default;
  pid_t pid_ = -1;
  int port_ = 0;
  std::string netns_;
  std::string log_path_;
};

// A free TCP port on 127.0.0.1 (bound and released; good enough for tests).
int FreeLoopbackPort();

}  // namespace rocewatch
