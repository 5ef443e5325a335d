#include "os/call_watch.h"

#include <algorithm>

namespace rocewatch {

bool StuckCalls::Contains(const std::string& what) const {
  if (count_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_.count(what) != 0;
}

std::vector<StuckCalls::Call> StuckCalls::List() const {
  std::vector<Call> out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [what, source] : calls_) out.push_back({source, what});
  }
  std::sort(out.begin(), out.end(), [](const Call& a, const Call& b) {
    return a.source != b.source ? a.source < b.source : a.what < b.what;
  });
  return out;
}

void StuckCalls::Add(const std::string& source, const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  calls_[what] = source;
  count_.store(calls_.size(), std::memory_order_release);
}

void StuckCalls::Remove(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  calls_.erase(what);
  count_.store(calls_.size(), std::memory_order_release);
}

bool CallWatch::Begin(const std::string& source, const std::string& what) {
  if (abandoned() || stuck_->Contains(what)) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  source_ = source;  // reuses the capacity: no allocation once warm
  what_ = what;
  in_flight_ = true;
  ++calls_;
  return true;
}

void CallWatch::End() {
  std::lock_guard<std::mutex> lock(mutex_);
  in_flight_ = false;
  ++calls_;
  if (taken_) {  // the stuck call returned after all: others may make it again
    stuck_->Remove(what_);
    taken_ = false;
  }
}

uint64_t CallWatch::calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

std::optional<StuckCalls::Call> CallWatch::TakeIfStuck(uint64_t since) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!in_flight_ || calls_ != since || taken_) return std::nullopt;
  // Under the watch's lock: End() cannot run between the check and the Add, so a call that
  // returns now is removed again by it, never left behind in StuckCalls.
  taken_ = true;
  abandoned_.store(true, std::memory_order_release);
  stuck_->Add(source_, what_);
  return StuckCalls::Call{source_, what_};
}

}  // namespace rocewatch
