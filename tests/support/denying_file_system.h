#pragma once
// The real file system, except that every read under chosen path prefixes fails with EACCES, as
// reads of another user's /proc/<pid>/environ and fd/ do for a non-root process. Root can read
// everything, so a plain fixture tree cannot show it. comm stays readable (it is world-readable).

#include <cerrno>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

class DenyingFileSystem final : public FileSystem {
 public:
  explicit DenyingFileSystem(std::vector<std::string> denied_prefixes)
      : denied_(std::move(denied_prefixes)) {}
  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override {
    if (Denied(path)) return Status::FromErrno(EACCES, path);
    return real_.ReadFile(path, max_bytes);
  }
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override {
    if (Denied(path)) return Status::FromErrno(EACCES, path);
    return real_.ListDir(path);
  }
  StatusOr<std::string> ReadLink(const std::string& path) const override {
    if (Denied(path)) return Status::FromErrno(EACCES, path);
    return real_.ReadLink(path);
  }
  bool IsDirectory(const std::string& path) const override { return real_.IsDirectory(path); }

 private:
  bool Denied(const std::string& path) const {
    if (path.size() >= 5 && path.compare(path.size() - 5, 5, "/comm") == 0) return false;
    for (const std::string& d : denied_)
      if (path.rfind(d, 0) == 0) return true;
    return false;
  }
  PosixFileSystem real_;
  std::vector<std::string> denied_;
};

}  // namespace rocewatch
