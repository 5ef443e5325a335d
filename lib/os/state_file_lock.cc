#include "os/state_file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "os/state_file_writer.h"  // EnsureDirectoryOf

namespace rocewatch {
namespace {

// The pid written by the holder, or "unknown".
std::string ReadHolder(int fd) {
  char text[32] = {};
  ssize_t n = ::pread(fd, text, sizeof(text) - 1, 0);
  std::string pid;
  for (ssize_t i = 0; i < n && text[i] >= '0' && text[i] <= '9'; ++i) pid += text[i];
  return pid.empty() ? "unknown" : pid;
}

}  // namespace

StatusOr<std::unique_ptr<StateFileLock>> StateFileLock::Acquire(const std::string& state_path) {
  if (state_path.empty()) return Status::InvalidArgument("empty state file path");
  if (Status made = EnsureDirectoryOf(state_path); !made.ok()) return made;
  const std::string lock_path = state_path + ".lock";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "open " + lock_path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int saved = errno;
    std::string holder = ReadHolder(fd);
    ::close(fd);
    if (saved == EWOULDBLOCK) {
      return Status::Unavailable("the state file " + state_path +
                                 " is in use by another rocewatch (pid " + holder + ", lock " +
                                 lock_path + "): stop it, or give this one its own --state-file");
    }
    return Status::FromErrno(saved, "flock " + lock_path);
  }
  // Best effort: on a full disk the lock still holds, the next one to try just cannot name us.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  return std::unique_ptr<StateFileLock>(new StateFileLock(fd, lock_path));
}

StateFileLock::~StateFileLock() { ::close(fd_); }

}  // namespace rocewatch
