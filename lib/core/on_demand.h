#pragma once
// A value the event loop builds only when another thread asks for it, and only if it changed
// since the last build: the daemon's /metrics exposition and its findings document. The loop
// polls every second, a scraper asks every 15-30 s (and someone running `diagnose --daemon` far
// less often), so building after every poll would mostly build what nobody reads.
//
// After a change (a poll, an event) the loop calls MarkStale(); Get() asks the loop
// (core/loop_requests.h), which builds the value if it is stale and publishes it, and returns the
// published value. What a reader gets is therefore as fresh as the loop's last change, built on
// the loop thread where its sources live; readers only share the published value. When the loop
// does not answer within `wait` (a poll that hangs in a read, a loop that stopped), Get() returns
// the last value built: whole, never one being built.
//
// Threading: Create() and the destructor on the loop thread (or while the loop does not run);
// MarkStale() and builds() from any thread; Get() from any thread but the loop's. `build` runs on
// the loop thread only.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/clock.h"
#include "core/event_loop.h"
#include "core/loop_requests.h"
#include "core/status.h"

namespace rocewatch {

// T is what readers share; `build` gives a Built, from which the shared T is made (T itself by
// default; e.g. a document type made from the std::string built, which need not be movable).
template <typename T, typename Built = T>
class OnDemand {
 public:
  using Build = std::function<Built()>;

  // The value starts stale: the first Get() that the loop answers builds it. `what` names the
  // value in errors. Errors: Internal when no eventfd can be made.
  // REQUIRES: loop outlives the object.
  static StatusOr<std::unique_ptr<OnDemand>> Create(EventLoop& loop, Build build, Duration wait,
                                                    const std::string& what) {
    std::unique_ptr<OnDemand> made(new OnDemand(std::move(build), wait));
    StatusOr<std::unique_ptr<LoopRequests>> requests = LoopRequests::Create(
        loop, [raw = made.get()] { raw->BuildIfStale(); }, what);
    if (!requests.ok()) return requests.status();
    made->requests_ = std::move(requests).value();
    return made;
  }
  OnDemand(const OnDemand&) = delete;
  OnDemand& operator=(const OnDemand&) = delete;

  // What `build` gives has changed: the next Get() builds it. Thread-safe.
  void MarkStale() { stale_.store(true, std::memory_order_release); }

  // The value as of the loop's last change (see above); null while none was ever built.
  std::shared_ptr<const T> Get() const {
    (void)requests_->Ask(wait_);  // unanswered: the last value built
    std::lock_guard<std::mutex> lock(mutex_);
    return current_;
  }

  // Values built so far (tests, benchmarks). Thread-safe.
  uint64_t builds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return builds_;
  }

 private:
  OnDemand(Build build, Duration wait) : build_(std::move(build)), wait_(wait) {}

  // Loop thread, when asked.
  void BuildIfStale() {
    if (!stale_.exchange(false, std::memory_order_acq_rel)) return;
    auto built = std::make_shared<const T>(build_());  // a MarkStale() meanwhile stays
    std::shared_ptr<const T> replaced;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      replaced = std::move(current_);
      current_ = std::move(built);
      ++builds_;
    }
    // `replaced` is freed here, outside the lock (unless a reader still holds it).
  }

  const Build build_;
  const Duration wait_;
  std::atomic<bool> stale_{true};
  mutable std::mutex mutex_;
  uint64_t builds_ = 0;                     // GUARDED_BY(mutex_)
  std::shared_ptr<const T> current_;        // GUARDED_BY(mutex_)
  std::unique_ptr<LoopRequests> requests_;  // destroyed first: stops watching the loop
};

}  // namespace rocewatch
