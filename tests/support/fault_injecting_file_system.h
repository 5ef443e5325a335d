#pragma once
// A FileSystem that forwards to another one (leveldb's EnvWrapper) except for chosen paths, whose
// reads fail with a chosen errno: EINVAL as sysfs does for an empty GID slot's attributes, EIO,
// EACCES, or ENOENT for a file or a whole device vanishing mid-poll. Records every path read.
//
// A rule for a path matches that path; a prefix rule matches the path and everything below it.
// ENOENT rules also make IsDirectory() false. Thread-safe; `base` must outlive this object.

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

class FaultInjectingFileSystem final : public FileSystem {
 public:
  explicit FaultInjectingFileSystem(const FileSystem* base) : base_(base) {}

  void FailPath(const std::string& path, int sys_errno);
  void FailPrefix(const std::string& prefix, int sys_errno);
  void ClearFailures();

  // Paths passed to ReadFile, in call order, failed reads included.
  std::vector<std::string> files_read() const;
  size_t ReadCount(const std::string& path) const;
  void ClearFilesRead();

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override;
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override;
  StatusOr<std::string> ReadLink(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;

 private:
  int FailureFor(const std::string& path) const;  // errno, 0 when none

  const FileSystem* base_;
  mutable std::mutex mu_;
  std::map<std::string, int> paths_;
  std::map<std::string, int> prefixes_;
  mutable std::vector<std::string> files_read_;
};

}  // namespace rocewatch
