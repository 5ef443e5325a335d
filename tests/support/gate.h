#pragma once
// Test helpers for code that runs on other threads: a Gate that calls wait at until the test opens
// it (a call stuck in the kernel, released on purpose), and Eventually, a bounded wait for a
// condition another thread makes true (30 s: a test fails rather than hangs).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rocewatch {

class Gate {
 public:
  // Waits until Open().
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++waiting_;
    changed_.wait(lock, [&] { return open_; });
    --waiting_;
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // Callers waiting now.
  int waiting() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return waiting_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;  // GUARDED_BY(mutex_)
  int waiting_ = 0;    // GUARDED_BY(mutex_)
};

template <typename Condition>
bool Eventually(Condition condition) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace rocewatch
