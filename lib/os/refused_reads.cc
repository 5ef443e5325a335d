#include "os/refused_reads.h"

#include <algorithm>

namespace rocewatch {

void RefusedReads::Note(const std::string& path) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (std::find(paths_.begin(), paths_.end(), path) != paths_.end()) return;
  if (paths_.size() < kMaxKept) {
    paths_.push_back(path);
  } else {
    more_ = true;
  }
}

std::vector<std::string> RefusedReads::Paths() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return paths_;
}

bool RefusedReads::more() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return more_;
}

}  // namespace rocewatch
