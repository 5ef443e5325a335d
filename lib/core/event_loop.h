#pragma once
// The daemon's single-threaded poll() loop: file descriptors (netlink socket, verbs async fds, the
// signal fd) and one-shot timers. All sources and detectors run on this thread; only the HTTP
// server's threads read, and they read what the loop published (core/on_demand.h).

#include <poll.h>

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "core/clock.h"

namespace rocewatch {

class EventLoop {
 public:
  using FdCallback = std::function<void(short revents)>;
  using TimerCallback = std::function<void()>;
  using TimerId = uint64_t;

  // The clock decides when timers are due; with a FakeClock tests advance time explicitly.
  explicit EventLoop(const Clock& clock) : clock_(clock) {}
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Calls `callback` from RunOnce whenever fd is readable (or has an error/hangup).
  // REQUIRES: fd is not watched already. The loop never closes fd.
  void WatchFd(int fd, FdCallback callback);
  void UnwatchFd(int fd);

  // Runs `callback` once, from RunOnce, at the first step at or after `when`.
  TimerId ScheduleAt(MonoTime when, TimerCallback callback);
  TimerId ScheduleAfter(Duration delay, TimerCallback callback) {
    return ScheduleAt(clock_.Now() + delay, std::move(callback));
  }
  // Cancelling a timer that already ran or was cancelled is a no-op.
  void Cancel(TimerId id);
  bool IsScheduled(TimerId id) const { return timers_.count(id) != 0; }

  struct StepResult {
    int fds_dispatched = 0;
    int timers_fired = 0;
  };
  // Waits until a watched fd is ready, a timer is due or max_wait passes (whichever is first),
  // then dispatches. Timers due are run in deadline order. EINTR is not an error.
  StepResult RunOnce(Duration max_wait);

  // Runs steps until Stop() is called (from a callback).
  void Run();
  void Stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

  const Clock& clock() const { return clock_; }

 private:
  struct Timer {
    MonoTime when;
    TimerCallback callback;
  };
  const Clock& clock_;
  std::map<int, FdCallback> fds_;
  std::map<TimerId, Timer> timers_;
  TimerId next_timer_id_ = 1;
  bool stopped_ = false;
};

}  // namespace rocewatch
