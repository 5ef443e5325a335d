#pragma once
// What a scrape sees, built when a scrape asks for it instead of after every poll.
//
// The daemon polls every second, Prometheus scrapes every 15-30 s: building the ~1,200 samples of
// a 16-rail node after every poll, and freeing the last ones, was a quarter of the daemon's CPU
// (docs/benchmarks.md). So after a poll the loop only marks the exposition stale (MarkStale), and
// a scrape asks the loop for it: Collect() wakes the loop through an eventfd and waits until the
// loop has built the families (only when stale) and published them. What a scrape serves is
// therefore as fresh as before (the last poll's), built on the loop thread where the components
// live; the exposer's threads only copy the published families. When the loop does not answer
// within `wait` (a poll that hangs in a read, or a loop that stopped) the scrape serves the last
// families built, as a published snapshot would have been.
//
// Threading: Create() and the destructor on the loop thread (or while the loop does not run);
// MarkStale() and Collect() from any thread. `build` runs on the loop thread only.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/clock.h"
#include "core/event_loop.h"
#include "core/status.h"

namespace rocewatch {

class OnDemandExposition final : public prometheus::Collectable {
 public:
  using Build = std::function<std::vector<prometheus::MetricFamily>()>;

  // Watches its eventfd on `loop`. The exposition starts stale (empty until built).
  // Errors: Internal when no eventfd can be made. REQUIRES: loop outlives the object.
  static StatusOr<std::unique_ptr<OnDemandExposition>> Create(EventLoop& loop, Build build,
                                                              Duration wait);
  ~OnDemandExposition() override;
  OnDemandExposition(const OnDemandExposition&) = delete;
  OnDemandExposition& operator=(const OnDemandExposition&) = delete;

  // The families `build` gives have changed (a poll, an event): the next scrape builds them.
  // Thread-safe.
  void MarkStale() { stale_.store(true, std::memory_order_release); }

  // The families as of the loop's last poll (see above). Never call it on the loop thread: it
  // would wait `wait` for itself.
  std::vector<prometheus::MetricFamily> Collect() const override;

  // Families built so far (tests, benchmarks). Thread-safe.
  uint64_t builds() const;

 private:
  OnDemandExposition(EventLoop& loop, Build build, Duration wait, int wake_fd);
  // Loop thread: the eventfd is readable (a scrape is waiting).
  void Answer();

  EventLoop& loop_;
  const Build build_;
  const Duration wait_;
  const int wake_fd_;
  std::atomic<bool> stale_{true};

  mutable std::mutex mutex_;
  mutable std::condition_variable answered_;
  mutable uint64_t requested_ = 0;  // GUARDED_BY(mutex_): scrapes that asked so far
  uint64_t answered_up_to_ = 0;     // GUARDED_BY(mutex_): requests the published families answer
  uint64_t builds_ = 0;             // GUARDED_BY(mutex_)
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> current_ =  // GUARDED_BY(mutex_)
      std::make_shared<const std::vector<prometheus::MetricFamily>>();
};

}  // namespace rocewatch
