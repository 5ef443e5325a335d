#include "core/event_loop.h"

#include <algorithm>
#include <cerrno>

namespace rocewatch {

void EventLoop::WatchFd(int fd, FdCallback callback) { fds_[fd] = std::move(callback); }

void EventLoop::UnwatchFd(int fd) { fds_.erase(fd); }

EventLoop::TimerId EventLoop::ScheduleAt(MonoTime when, TimerCallback callback) {
  TimerId id = next_timer_id_++;
  timers_.emplace(id, Timer{when, std::move(callback)});
  return id;
}

void EventLoop::Cancel(TimerId id) { timers_.erase(id); }

EventLoop::StepResult EventLoop::RunOnce(Duration max_wait) {
  StepResult result;
  MonoTime now = clock_.Now();
  Duration wait = max_wait;
  for (const auto& [id, timer] : timers_) wait = std::min(wait, timer.when - now);
  if (wait < Duration::zero()) wait = Duration::zero();
  // Round up so a timer 0.3 ms away does not spin with a 0 ms timeout.
  int timeout_ms =
      static_cast<int>(std::min<int64_t>((wait.count() + 999'999) / 1'000'000, 24 * 3600 * 1000));

  std::vector<pollfd> pfds;
  pfds.reserve(fds_.size());
  for (const auto& [fd, cb] : fds_) pfds.push_back(pollfd{fd, POLLIN, 0});
  int ready = ::poll(pfds.data(), pfds.size(), timeout_ms);
  if (ready > 0) {
    for (const pollfd& p : pfds) {
      if (p.revents == 0) continue;
      auto it = fds_.find(p.fd);
      if (it == fds_.end()) continue;    // unwatched by an earlier callback of this step
      FdCallback callback = it->second;  // a copy: the callback may unwatch itself
      callback(p.revents);
      ++result.fds_dispatched;
    }
  }

  // Run due timers in deadline order; a callback may schedule or cancel others.
  while (true) {
    now = clock_.Now();
    auto due = timers_.end();
    for (auto it = timers_.begin(); it != timers_.end(); ++it) {
      if (it->second.when <= now && (due == timers_.end() || it->second.when < due->second.when))
        due = it;
    }
    if (due == timers_.end()) break;
    TimerCallback callback = std::move(due->second.callback);
    timers_.erase(due);
    callback();
    ++result.timers_fired;
  }
  return result;
}

void EventLoop::Run() {
  stopped_ = false;
  while (!stopped_) RunOnce(std::chrono::seconds(1));
}

}  // namespace rocewatch
