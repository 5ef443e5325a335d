#pragma once
// The reads a file system refused because their path left its root through a link
// (os/beneath_path.h): kept so that a report can say what was not read and why, instead of the
// value merely looking absent. Safe to share between threads.

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace rocewatch {

class RefusedReads {
 public:
  // At most this many paths are kept (a hostile tree could hold millions of links).
  static constexpr size_t kMaxKept = 32;

  // Notes `path` (once, however often it is read).
  void Note(const std::string& path);
  // The paths noted, in the order first refused, at most kMaxKept of them.
  std::vector<std::string> Paths() const;
  // True if more paths were refused than kept.
  bool more() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> paths_;  // GUARDED_BY(mutex_)
  bool more_ = false;               // GUARDED_BY(mutex_)
};

}  // namespace rocewatch
