#pragma once
// An in-memory FileSystem for tests: files, directories and symbolic links held in maps, reads that
// can be made to fail with any errno (as sysfs fails an empty GID slot's attributes with EINVAL),
// and a record of every path read (ninja's VirtualFileSystem::files_read_).
//
// Paths are absolute; repeated and trailing '/' are ignored. Adding a file or link creates its
// parent directories. Links are not followed by ReadFile/ListDir (sysfs fixtures do not need it).
// Thread-safe: reads may come from any thread while a test mutates it.

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

class FakeFileSystem final : public FileSystem {
 public:
  void AddFile(const std::string& path, const std::string& content);
  void AddDir(const std::string& path);
  void AddLink(const std::string& path, const std::string& target);
  // Removes path and everything below it (a device vanishing). No-op if absent.
  void Remove(const std::string& path);
  // Every later ReadFile/ListDir/ReadLink of exactly `path` fails with `sys_errno` (the path still
  // exists for IsDirectory). The read is still recorded in files_read().
  void FailReads(const std::string& path, int sys_errno);
  void ClearFailures();

  // Paths passed to ReadFile, in call order, failed reads included.
  std::vector<std::string> files_read() const;
  // How many times ReadFile was called for `path`.
  size_t ReadCount(const std::string& path) const;
  void ClearFilesRead();

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override;
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override;
  StatusOr<std::string> ReadLink(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;

 private:
  void AddDirLocked(const std::string& normalized);
  int FailureLocked(const std::string& normalized) const;  // errno, 0 when none

  mutable std::mutex mu_;
  std::map<std::string, std::string> files_;
  std::set<std::string> dirs_;
  std::map<std::string, std::string> links_;
  std::map<std::string, int> failures_;
  mutable std::vector<std::string> files_read_;
};

// "/a//b/" -> "/a/b"; "" -> "/".
std::string NormalizeFakePath(const std::string& path);

}  // namespace rocewatch
