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

// Writes under a directory of the local file system (created if missing).
class DirectoryBundleWriter final : public BundleWriter {
 public:
  explicit DirectoryBundleWriter(std::string root) : root_(std::move(root)) {}
  Status WriteFile(const std::string& relative, const std::string& content) override;
  Status MakeDir(const std::string& relative) override;
  Status MakeLink(const std::string& relative, const std::string& target) override;

 private:
  Status EnsureDir(const std::string& path);
  std::string root_;
  std::set<std::string> made_;  // directories known to exist
};

}  // namespace rocewatch
