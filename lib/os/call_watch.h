#pragma once
// What a reading thread is doing now, so that another thread can tell that one call has not
// returned for too long (a sysfs attribute whose driver is wedged, a FIFO planted where a file
// was expected), and the calls known to be stuck, so that no other thread makes them again.
//
// StuckCalls: the calls (by what they read, e.g. a path) that did not return within a deadline
// and have not returned since, with the source they belong to ("sysfs", "verbs", "ethtool").
// Thread-safe; shared (std::shared_ptr) by every CallWatch that reports into it, so it outlives the
// threads that were given up on.
//
// CallWatch: one per reading thread. The thread brackets each call that may block with Begin(what)
// and End(); the watching thread asks TakeIfStuck(since) whether the same call has been in flight
// since it last looked. Taking a call marks the watch abandoned: the call is added to StuckCalls,
// every later Begin() of this watch is refused (the thread is meant to finish quickly without
// more I/O), and when the stuck call does return, End() removes it from StuckCalls again.
// Threading: Begin/End from the reading thread, everything else from any thread.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rocewatch {

class StuckCalls {
 public:
  struct Call {
    std::string source;  // "sysfs", "verbs", "ethtool", "procfs", "dcb"
    std::string what;    // a path, or "ibv_query_gid_table mlx5_0"
  };

  // True if `what` is stuck now. Cheap while nothing is stuck (no lock taken).
  bool Contains(const std::string& what) const;
  // Every call stuck now, ordered by (source, what).
  std::vector<Call> List() const;
  size_t size() const { return count_.load(std::memory_order_acquire); }

  // Reading threads given up on that have not finished yet (a thread finishes once its stuck call
  // returns). Counted by the owner of those threads.
  int abandoned_threads() const { return abandoned_threads_.load(std::memory_order_acquire); }
  void CountAbandonedThread(int delta) {
    abandoned_threads_.fetch_add(delta, std::memory_order_acq_rel);
  }

 private:
  friend class CallWatch;
  void Add(const std::string& source, const std::string& what);
  void Remove(const std::string& what);

  mutable std::mutex mutex_;
  std::map<std::string, std::string> calls_;  // GUARDED_BY(mutex_): what -> source
  std::atomic<size_t> count_{0};              // calls_.size()
  std::atomic<int> abandoned_threads_{0};
};

class CallWatch {
 public:
  // REQUIRES: stuck is not null.
  explicit CallWatch(std::shared_ptr<StuckCalls> stuck) : stuck_(std::move(stuck)) {}

  // Before a call that may block. False (make no call) if `what` is stuck already (another thread
  // is in it) or this watch was abandoned.
  bool Begin(const std::string& source, const std::string& what);
  // After the call that Begin() allowed returned.
  void End();

  // Calls begun so far: the token TakeIfStuck compares.
  uint64_t calls() const;
  // If a call is in flight and it is the one that was in flight when calls() returned `since`
  // (no call began or ended in between), marks it stuck, abandons the watch and returns what the
  // call reads; nullopt otherwise (the thread made progress, or is between calls).
  std::optional<StuckCalls::Call> TakeIfStuck(uint64_t since);
  // Waits on `finished` (with `lock` held, the lock of what `done` reads) until `done()` holds
  // (nullopt) or a call of this watch is stuck: in flight at two looks in a row, looking every
  // `deadline` (then TakeIfStuck took it; it is returned). The watch's own lock is taken while
  // `lock` is held, never the other way round.
  template <typename Done>
  std::optional<StuckCalls::Call> AwaitOrTakeStuck(std::unique_lock<std::mutex>& lock,
                                                   std::condition_variable& finished,
                                                   std::chrono::nanoseconds deadline, Done done) {
    uint64_t seen = calls();
    while (!finished.wait_for(lock, deadline, done)) {
      if (std::optional<StuckCalls::Call> stuck = TakeIfStuck(seen)) return stuck;
      seen = calls();
    }
    return std::nullopt;
  }
  bool abandoned() const { return abandoned_.load(std::memory_order_acquire); }
  const std::shared_ptr<StuckCalls>& stuck() const { return stuck_; }

 private:
  const std::shared_ptr<StuckCalls> stuck_;
  mutable std::mutex mutex_;
  std::string source_;      // GUARDED_BY(mutex_): of the call in flight
  std::string what_;        // GUARDED_BY(mutex_)
  bool in_flight_ = false;  // GUARDED_BY(mutex_)
  uint64_t calls_ = 0;      // GUARDED_BY(mutex_): Begin() and End() each count one
  bool taken_ = false;      // GUARDED_BY(mutex_): the call in flight was taken as stuck
  std::atomic<bool> abandoned_{false};
};

}  // namespace rocewatch
