#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/duration.h"
#include "os/command_runner.h"

namespace rocewatch {
namespace {

struct Pipe {
  int read = -1, write = -1;
  ~Pipe() { Close(); }
  void Close() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
    read = write = -1;
  }
};

Status OpenPipe(Pipe& pipe) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::FromErrno(errno, "pipe");
  pipe.read = fds[0];
  pipe.write = fds[1];
  return Status::Ok();
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void ExecChild(char* const* argv, char* const* envp, int out, int err, int status) {
  int null = ::open("/dev/null", O_RDONLY);
  if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) {
    int e = errno;
    (void)!::write(status, &e, sizeof(e));
    ::_exit(127);
  }
  ::setpgid(0, 0);  // its own group: a timeout kills what it started too
  ::execve(argv[0], argv, envp);
  int e = errno;
  (void)!::write(status, &e, sizeof(e));
  ::_exit(127);
}

int ExitStatusOf(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 255;
}

}  // namespace

StatusOr<CommandResult> PosixCommandRunner::Run(const std::vector<std::string>& argv,
                                                const std::vector<std::string>& env,
                                                Duration timeout) const {
  if (argv.empty() || argv[0].empty()) return Status::InvalidArgument("no program to run");
  std::vector<char*> args, envp;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  Pipe out, err, status;
  for (Pipe* p : {&out, &err, &status})
    if (Status s = OpenPipe(*p); !s.ok()) return s;
  const pid_t pid = ::fork();
  if (pid < 0) return Status::FromErrno(errno, "fork");
  if (pid == 0) ExecChild(args.data(), envp.data(), out.write, err.write, status.write);
  ::close(out.write);
  ::close(err.write);
  ::close(status.write);
  out.write = err.write = status.write = -1;

  const auto deadline = std::chrono::steady_clock::now() + timeout;
  CommandResult result;
  bool timed_out = false;
  std::string* sinks[2] = {&result.out, &result.err};
  int fds[2] = {out.read, err.read};
  while (fds[0] >= 0 || fds[1] >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd polled[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    int ready = ::poll(polled, 2, static_cast<int>(std::min<long long>(left.count() + 1, 60000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i] < 0 || (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buffer[4096];
      ssize_t n = ::read(fds[i], buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(
            buffer, std::min<size_t>(static_cast<size_t>(n), kMaxOutputBytes - sinks[i]->size()));
      } else if (n == 0 || errno != EINTR) {
        fds[i] = -1;
      }
    }
  }
  int wait_status = 0;
  if (timed_out) {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  }
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  int exec_errno = 0;
  if (::read(status.read, &exec_errno, sizeof(exec_errno)) == sizeof(exec_errno))
    return Status::FromErrno(exec_errno, "cannot run " + argv[0]);
  if (timed_out)
    return Status::Unavailable(argv[0] + " timed out after " + FormatDuration(timeout) +
                               " (killed)");
  result.exit_status = ExitStatusOf(wait_status);
  return result;
}

}  // namespace rocewatch
