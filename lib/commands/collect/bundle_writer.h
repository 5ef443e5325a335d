#pragma once
// Where a support bundle is written: a directory tree shaped like a host root. Abstract so that
// the collector can be tested without caring how bytes reach the disk.

#include <set>
#include <string>

#include "core/status.h"

namespace rocewatch {

class BundleWriter {
 public:
  virtual ~BundleWriter() = default;
  // Writes `content` (any bytes) at `relative` ("sys/class/net/eth0/carrier"), creating parent
  // directories. Errors: IoError naming the path.
  virtual Status WriteFile(const std::string& relative, const std::string& content) = 0;
  // Creates the directory `relative` and its parents.
  virtual Status MakeDir(const std::string& relative) = 0;
  // A symbolic link at `relative` pointing at `target` (stored as given).
  virtual Status MakeLink(const std::string& relative, const std::string& target) = 0;
};

// Writes under a directory of the local file system. A bundle holds secrets (the environments of
// the jobs, tokens included) and is written as root into a place others may reach (/tmp), so:
//  - the directory is created (mode 0700) or, if it exists, must be an empty directory (not a
//    link) owned by the writing user, and is then made 0700: links planted beforehand cannot be;
//  - every path below it is opened without following any link (os/beneath_path.h, kNone), so a
//    link swapped in later is refused, never written through;
//  - files are created 0600 and directories 0700 (less if the umask says so).
class DirectoryBundleWriter final : public BundleWriter {
 public:
  explicit DirectoryBundleWriter(std::string root) : root_(std::move(root)) {}
  ~DirectoryBundleWriter() override;
  DirectoryBundleWriter(const DirectoryBundleWriter&) = delete;
  DirectoryBundleWriter& operator=(const DirectoryBundleWriter&) = delete;

  Status WriteFile(const std::string& relative, const std::string& content) override;
  Status MakeDir(const std::string& relative) override;
  Status MakeLink(const std::string& relative, const std::string& target) override;

  // Creates or checks the root as above; the first write does it if this was not called (and
  // each write then fails with its error). Errors: InvalidArgument for an existing directory that
  // is not empty, a link or not a directory, or owned by another user (saying which); IoError or
  // PermissionDenied naming the path otherwise.
  Status Open();

 private:
  // Creates `relative` and its parents below the root, following no link.
  Status EnsureDir(const std::string& relative);
  std::string root_;
  int fd_ = -1;                 // the root directory, once opened
  Status open_error_;           // why Open failed, kept
  std::set<std::string> made_;  // directories (relative) known to exist
};

}  // namespace rocewatch
