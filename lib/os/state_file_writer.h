#pragma once
// Writes the daemon's state file so that a crash or power loss at any instant leaves either the
// old content or the new, never a torn file: write a temporary file beside it, fsync it, rename
// it over the target, fsync the directory. Abstract so that tests can record writes or make them
// fail (tests/support/fake_state_file_writer.h).

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// The directory part of `path` ("." for a bare name, "/" for a file in the root).
std::string DirectoryOf(const std::string& path);
// Creates the directory of `path` (one level, mode 0755) when it is missing. Errors: FromErrno.
Status EnsureDirectoryOf(const std::string& path);

// True while a process `pid` exists (kill(pid, 0) succeeds or is refused with EPERM).
bool ProcessExists(pid_t pid);

// Removes the temporary files `<name>.tmp.<pid>` beside `path` (name: its last component) that a
// writer killed between create and rename left behind: only names of exactly that form, only
// regular files (a link of that name is never followed nor removed), only of pids `exists` says
// are gone, never this process's. Returns the names removed; an unreadable directory removes
// nothing.
std::vector<std::string> RemoveStaleTemporaryFiles(
    const std::string& path, const std::function<bool(pid_t)>& exists = ProcessExists);

class StateFileWriter {
 public:
  virtual ~StateFileWriter() = default;
  // Replaces the content of `path` atomically. Errors: FromErrno of the failing step (the target
  // is then untouched and no temporary file is left behind).
  virtual Status WriteAtomically(const std::string& path, const std::string& content) = 0;
};

class PosixStateFileWriter final : public StateFileWriter {
 public:
  // Creates the file's directory (one level) when it is missing.
  Status WriteAtomically(const std::string& path, const std::string& content) override;
};

}  // namespace rocewatch
