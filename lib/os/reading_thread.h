#pragma once
// A thread that makes the host calls that may block (a wedged driver's sysfs attribute or ioctl,
// a FIFO planted where a file was expected, a procfs file whose process holds its mm lock) for the
// event loop, one task at a time, while the loop waits for it with a deadline. docs/design.md
// ("Reads that cannot wedge the loop") says why this shape.
//
// The loop hands a task to Run() and waits. Every call of the task that may block goes through the
// thread's CallWatch (watch(): a WatchedFileSystem over it, or Begin/End around an ioctl). The loop
// looks every `deadline`; a call in flight at two looks in a row (stuck for one to two deadlines)
// is taken as stuck (listed in StuckCalls), Run() returns it, and the thread is given up on:
// counted in StuckCalls::abandoned_threads, detached, never joined. Every later call of its watch
// is refused, so when the stuck call does return the task ends at once without touching the host
// again; the thread then releases what it keeps (Keep(): the task's sources, descriptors, buffers)
// on itself and counts itself out. A thread given up on is spent: its owner makes a new one.
//
// Threading: everything on the owner's thread (the loop) but what the tasks do. The thread runs a
// task only while Run() waits, so what a task touches needs no lock of its own: the handoff under
// the thread's mutex orders the task's writes before the owner's reads after Run() returns.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

#include "os/call_watch.h"

namespace rocewatch {

class ReadingThread {
 public:
  // REQUIRES: stuck is not null. The thread starts at the first Run().
  explicit ReadingThread(std::shared_ptr<StuckCalls> stuck);
  // Stop().
  ~ReadingThread();
  ReadingThread(const ReadingThread&) = delete;
  ReadingThread& operator=(const ReadingThread&) = delete;

  // The watch every call of the tasks goes through. It lives as long as this object or the thread,
  // whichever ends last: what the thread keeps may refer to it.
  CallWatch& watch();
  // Something the thread holds until it ends and releases on itself. A thread given up on keeps it
  // alive for as long as its stuck call may use it. REQUIRES: before the first Run().
  void Keep(std::shared_ptr<void> owned);

  // Runs `task` on the thread and waits. nullopt: the task ran to its end. Otherwise the call taken
  // as stuck; the thread was given up on and this object is spent. `task` and what it captures are
  // released on the thread. REQUIRES: !spent().
  std::optional<StuckCalls::Call> Run(std::function<void()> task,
                                      std::chrono::nanoseconds deadline);
  // True once the thread was given up on, or stopped.
  bool spent() const { return spent_; }

  // Stops and joins the thread (idle between tasks: this never waits on the kernel); what it kept
  // is released on it. The object is spent. Nothing to join if it never started or was given up
  // on.
  void Stop();

 private:
  struct Core;  // shared with the thread
  static void Loop(std::shared_ptr<Core> core);

  std::shared_ptr<Core> core_;
  std::thread thread_;
  bool started_ = false;
  bool spent_ = false;
};

}  // namespace rocewatch
