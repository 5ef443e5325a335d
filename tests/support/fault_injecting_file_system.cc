#include "support/fault_injecting_file_system.h"

#include <algorithm>
#include <cerrno>

#include "support/fake_file_system.h"

namespace rocewatch {

void FaultInjectingFileSystem::FailPath(const std::string& path, int sys_errno) {
  std::lock_guard lock(mu_);
  paths_[NormalizeFakePath(path)] = sys_errno;
}

void FaultInjectingFileSystem::FailPrefix(const std::string& prefix, int sys_errno) {
  std::lock_guard lock(mu_);
  prefixes_[NormalizeFakePath(prefix)] = sys_errno;
}

void FaultInjectingFileSystem::ClearFailures() {
  std::lock_guard lock(mu_);
  paths_.clear();
  prefixes_.clear();
}

std::vector<std::string> FaultInjectingFileSystem::files_read() const {
  std::lock_guard lock(mu_);
  return files_read_;
}

size_t FaultInjectingFileSystem::ReadCount(const std::string& path) const {
  std::lock_guard lock(mu_);
  return static_cast<size_t>(
      std::count(files_read_.begin(), files_read_.end(), NormalizeFakePath(path)));
}

void FaultInjectingFileSystem::ClearFilesRead() {
  std::lock_guard lock(mu_);
  files_read_.clear();
}

int FaultInjectingFileSystem::FailureFor(const std::string& path) const {
  std::string p = NormalizeFakePath(path);
  if (auto it = paths_.find(p); it != paths_.end()) return it->second;
  for (const auto& [prefix, err] : prefixes_) {
    if (p == prefix || prefix == "/" ||
        (p.size() > prefix.size() && p.compare(0, prefix.size(), prefix) == 0 &&
         p[prefix.size()] == '/')) {
      return err;
    }
  }
  return 0;
}

StatusOr<std::string> FaultInjectingFileSystem::ReadFile(const std::string& path,
                                                         size_t max_bytes) const {
  {
    std::lock_guard lock(mu_);
    files_read_.push_back(NormalizeFakePath(path));
    if (int err = FailureFor(path)) return Status::FromErrno(err, path);
  }
  return base_->ReadFile(path, max_bytes);
}

StatusOr<std::vector<std::string>> FaultInjectingFileSystem::ListDir(
    const std::string& path) const {
  {
    std::lock_guard lock(mu_);
    if (int err = FailureFor(path)) return Status::FromErrno(err, path);
  }
  return base_->ListDir(path);
}

StatusOr<std::string> FaultInjectingFileSystem::ReadLink(const std::string& path) const {
  {
    std::lock_guard lock(mu_);
    if (int err = FailureFor(path)) return Status::FromErrno(err, path);
  }
  return base_->ReadLink(path);
}

bool FaultInjectingFileSystem::IsDirectory(const std::string& path) const {
  {
    std::lock_guard lock(mu_);
    if (FailureFor(path) == ENOENT) return false;
  }
  return base_->IsDirectory(path);
}

}  // namespace rocewatch
