#pragma once
// A StateFileWriter that keeps what was written in memory, or fails with a chosen errno.

#include <map>
#include <string>

#include "os/state_file_writer.h"

namespace rocewatch {

class FakeStateFileWriter final : public StateFileWriter {
 public:
  Status WriteAtomically(const std::string& path, const std::string& content) override {
    ++writes;
    if (fail_errno != 0) return Status::FromErrno(fail_errno, "fake write " + path);
    files[path] = content;
    return Status::Ok();
  }
  int fail_errno = 0;  // e.g. EROFS, ENOSPC, EACCES
  int writes = 0;
  std::map<std::string, std::string> files;
};

}  // namespace rocewatch
