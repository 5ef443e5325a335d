#pragma once
// A FileSystem over another whose reads of chosen paths wait until the test releases them: a
// wedged driver's attribute, or a procfs file whose process holds its mm lock. Waits on
// conditions; AwaitNoneWaiting is bounded, so a test fails rather than hangs.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

class BlockingFileSystem final : public FileSystem {
 public:
  // REQUIRES: base outlives this object.
  explicit BlockingFileSystem(const FileSystem& base) : base_(base) {}

  void Block(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocked_.insert(path);
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  // Reads waiting in a blocked path now.
  int waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_;
  }
  // Waits until no read waits (at most 30 s).
  bool AwaitNoneWaiting() const {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(30), [&] { return waiting_ == 0; });
  }

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override {
    Wait(path);
    return base_.ReadFile(path, max_bytes);
  }
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override {
    Wait(path);
    return base_.ListDir(path);
  }
  StatusOr<std::string> ReadLink(const std::string& path) const override {
    Wait(path);
    return base_.ReadLink(path);
  }
  bool IsDirectory(const std::string& path) const override { return base_.IsDirectory(path); }

 private:
  void Wait(const std::string& path) const {
    std::unique_lock<std::mutex> lock(mutex_);
    if (blocked_.count(path) == 0) return;
    ++waiting_;
    changed_.wait(lock, [&] { return released_; });
    --waiting_;
    changed_.notify_all();
  }

  const FileSystem& base_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::set<std::string> blocked_;  // GUARDED_BY(mutex_)
  bool released_ = false;          // GUARDED_BY(mutex_)
  mutable int waiting_ = 0;        // GUARDED_BY(mutex_)
};

}  // namespace rocewatch
