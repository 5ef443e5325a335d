#pragma once
// Lets other threads ask the event loop to do something and wait, for a bounded time, until it has
// done it: Ask() wakes the loop through an eventfd, the loop runs `answer` once for every wake-up
// (however many requests it answers) and the askers whose request came before that run return.
// A request the loop does not answer within its wait (a poll that hangs in a read, a loop that is
// not running) returns false; the wake stays pending and is answered when the loop runs again.
//
// Threading: Create() and the destructor on the loop thread (or while the loop does not run);
// Ask() from any other thread; `answer` runs on the loop thread only.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "core/clock.h"
#include "core/event_loop.h"
#include "core/status.h"

namespace rocewatch {

class LoopRequests {
 public:
  using Answer = std::function<void()>;

  // Watches its eventfd on `loop`; `what` names the requests in errors ("/metrics").
  // Errors: Internal when no eventfd can be made. REQUIRES: loop outlives the object.
  static StatusOr<std::unique_ptr<LoopRequests>> Create(EventLoop& loop, Answer answer,
                                                        const std::string& what);
  ~LoopRequests();
  LoopRequests(const LoopRequests&) = delete;
  LoopRequests& operator=(const LoopRequests&) = delete;

  // Wakes the loop and waits until `answer` has run to its end after this call began, or `wait`
  // has passed. Returns whether it was answered. Never call it on the loop thread: it would wait
  // `wait` for itself.
  bool Ask(Duration wait) const;

 private:
  LoopRequests(EventLoop& loop, Answer answer, int wake_fd);
  // Loop thread: the eventfd is readable (someone is waiting).
  void OnWake();

  EventLoop& loop_;
  const Answer answer_;
  const int wake_fd_;
  mutable std::mutex mutex_;
  mutable std::condition_variable answered_;
  mutable uint64_t requested_ = 0;  // GUARDED_BY(mutex_): requests made so far
  uint64_t answered_up_to_ = 0;     // GUARDED_BY(mutex_): requests answered so far
};

}  // namespace rocewatch
