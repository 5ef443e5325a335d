#pragma once
// Read access to files: sysfs, procfs, /etc and /run of the host. Abstract so that tests can stand
// a fake (tests/support/fake_file_system.h) or a fault-injecting wrapper behind every read, e.g. to
// make a sysfs attribute read fail with EINVAL as the kernel does for an empty GID slot.
//
// Paths are absolute and already include any --host-root / --sysfs-root prefix (see HostPaths).

#include <cstddef>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

class FileSystem {
 public:
  // Attribute files in sysfs are at most a page; larger content is cut at this bound.
  static constexpr size_t kDefaultMaxRead = 64 * 1024;

  virtual ~FileSystem() = default;

  // The content of the file, at most max_bytes of it (the rest is not read).
  // Errors: Status::FromErrno of the failing open/read (NotFound, PermissionDenied, IoError with
  // the errno: EINVAL for an empty GID slot's attributes, EISDIR for a directory).
  virtual StatusOr<std::string> ReadFile(const std::string& path,
                                         size_t max_bytes = kDefaultMaxRead) const = 0;

  // Names of the entries of a directory, without "." and "..", sorted in natural order ("2" before
  // "10"). Errors as for ReadFile.
  virtual StatusOr<std::vector<std::string>> ListDir(const std::string& path) const = 0;

  // The target of a symbolic link, as stored. Errors as for ReadFile (EINVAL: not a link).
  virtual StatusOr<std::string> ReadLink(const std::string& path) const = 0;

  // True if path names an existing directory (following links).
  virtual bool IsDirectory(const std::string& path) const = 0;
};

// The real file system, through open/read/close, opendir and readlink.
class PosixFileSystem final : public FileSystem {
 public:
  struct Options {
    // Stop reading at the first short read instead of reading again until read() returns 0. True
    // is exact for sysfs attributes (the kernel renders one into a page and serves it in one read)
    // and regular files, and saves a system call per file: a poll reads about a thousand files.
    // It is not for seq_file-backed procfs files larger than a page, which may read short early.
    bool stop_at_short_read = false;
  };

  PosixFileSystem() = default;
  explicit PosixFileSystem(Options options) : options_(options) {}

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override;
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override;
  StatusOr<std::string> ReadLink(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;

 private:
  Options options_;
};

// Orders names as people expect numbered entries: "2" < "10", "mlx5_2" < "mlx5_10".
bool NaturalLess(const std::string& a, const std::string& b);

// Joins path parts with exactly one '/' between them.
std::string JoinPath(const std::string& a, const std::string& b);

}  // namespace rocewatch
