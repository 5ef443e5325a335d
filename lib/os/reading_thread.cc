#include "os/reading_thread.h"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace rocewatch {

// Shared by the owner and the thread; the thread holds it until it ends, so a thread given up on
// keeps its watch, what it keeps and its task alive for as long as it needs them.
struct ReadingThread::Core {
  explicit Core(std::shared_ptr<StuckCalls> stuck) : watch(std::move(stuck)) {}

  CallWatch watch;
  std::shared_ptr<void> kept;  // released on the thread when it ends

  std::mutex mutex;
  std::condition_variable wake;      // to the thread: a task, or quit
  std::condition_variable finished;  // to the owner: the task is done
  std::function<void()> task;        // GUARDED_BY(mutex): the task to run, until taken
  bool done = false;                 // GUARDED_BY(mutex)
  bool quit = false;                 // GUARDED_BY(mutex)
};

ReadingThread::ReadingThread(std::shared_ptr<StuckCalls> stuck)
    : core_(std::make_shared<Core>(std::move(stuck))) {}

ReadingThread::~ReadingThread() { Stop(); }

CallWatch& ReadingThread::watch() { return core_->watch; }

void ReadingThread::Keep(std::shared_ptr<void> owned) { core_->kept = std::move(owned); }

void ReadingThread::Loop(std::shared_ptr<Core> core) {
  std::unique_lock<std::mutex> lock(core->mutex);
  while (true) {
    core->wake.wait(lock, [&] { return core->task != nullptr || core->quit; });
    if (core->quit) break;
    std::function<void()> task = std::exchange(core->task, nullptr);
    lock.unlock();
    task();
    task = nullptr;  // what it holds is released here, not while the owner reads the answer
    lock.lock();
    core->done = true;
    core->finished.notify_all();
  }
  lock.unlock();
  core->kept.reset();  // its descriptors and sockets are closed on this thread
  if (core->watch.abandoned()) core->watch.stuck()->CountAbandonedThread(-1);
}

std::optional<StuckCalls::Call> ReadingThread::Run(std::function<void()> task,
                                                   std::chrono::nanoseconds deadline) {
  if (!started_) {
    thread_ = std::thread(Loop, core_);
    started_ = true;
  }
  std::unique_lock<std::mutex> lock(core_->mutex);
  core_->task = std::move(task);
  core_->done = false;
  core_->wake.notify_all();
  std::optional<StuckCalls::Call> stuck =
      core_->watch.AwaitOrTakeStuck(lock, core_->finished, deadline, [&] { return core_->done; });
  if (!stuck) return std::nullopt;
  // Given up on: counted before the thread can see quit and count itself out.
  core_->watch.stuck()->CountAbandonedThread(1);
  core_->quit = true;  // seen once the stuck call returns and the task ends
  core_->wake.notify_all();
  lock.unlock();
  thread_.detach();
  spent_ = true;
  return stuck;
}

void ReadingThread::Stop() {
  if (spent_) return;
  spent_ = true;
  if (!started_) return;
  {
    std::lock_guard<std::mutex> lock(core_->mutex);
    core_->quit = true;
  }
  core_->wake.notify_all();
  thread_.join();  // idle between tasks: returns at once
}

}  // namespace rocewatch
