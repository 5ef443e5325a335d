#pragma once
// One daemon per state file. Two daemons on one file would each replace the other's state and
// count every drift twice; the second one to start must refuse, naming the first. The lock is an
// advisory flock(2) on <state file>.lock (not on the state file itself: the file is replaced by
// rename on every write), which holds the holder's pid as text. The kernel drops the lock when
// the holder exits, however it exits; a stale pid in the file is harmless.
//
// The pid is the holder's in its own PID namespace: a daemon in a container and one on the host
// see the same lock but not each other's pids.

#include <memory>
#include <string>

#include "core/status.h"

namespace rocewatch {

class StateFileLock {
 public:
  // Takes the lock of `state_path` without waiting. Creates the lock file's directory (one level)
  // when it is missing. Errors: Unavailable "... is in use by another rocewatch (pid N) ..." when
  // another process holds it; FromErrno of the failing step otherwise (e.g. EROFS: a read-only
  // state directory, where the caller may go on unlocked: nothing can be written there either).
  static StatusOr<std::unique_ptr<StateFileLock>> Acquire(const std::string& state_path);
  ~StateFileLock();  // releases the lock (the lock file stays)
  StateFileLock(const StateFileLock&) = delete;
  StateFileLock& operator=(const StateFileLock&) = delete;

  const std::string& lock_path() const { return lock_path_; }

 private:
  StateFileLock(int fd, std::string lock_path) : fd_(fd), lock_path_(std::move(lock_path)) {}
  int fd_;
  std::string lock_path_;
};

}  // namespace rocewatch
