#pragma once
// A component's reads that may block, made on a ReadingThread (os/reading_thread.h) of their own
// behind a deadline, with the state those reads use (their sources, a scanner's cache, what they
// answer). A thread given up on keeps its state until its stuck call returns; the next read starts
// a new thread with a new state (MakeState). docs/design.md ("Reads that cannot wedge the loop").
//
//   GuardedReader<ScanState> reader({stuck, deadline}, [&](CallWatch& watch) {
//     return std::make_shared<ScanState>(base_fs, watch);  // a WatchedFileSystem over base_fs
//   });
//   Status ran = reader.Run([full](ScanState& s) { s.scan = s.scanner.Scan(full); });
//   if (ran.ok()) use(reader.state()->scan);
//
// A read runs with the state and writes what it answers into it: a read given up on ends after
// Run() returned, so it may touch only its state and what it captured by value.
//
// Threading: everything on the owner's thread (the loop). Reads run on the reading thread while
// Run() waits for them, so the state needs no lock.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/status.h"
#include "os/reading_thread.h"

namespace rocewatch {

struct GuardedReaderOptions {
  // Where stuck calls and given-up threads are counted (shared by every reader of the daemon:
  // what rocewatch_source_stalled and /healthz report). REQUIRES: not null.
  std::shared_ptr<StuckCalls> stuck;
  // How long one call may stay in flight before it is taken as stuck: one to two of these.
  std::chrono::nanoseconds deadline = std::chrono::seconds(2);
  // Reading threads given up on and not finished yet (counted in `stuck`, with other readers'),
  // at most; past that, reads fail Unavailable without being made until one finishes.
  int max_abandoned = 8;
};

template <typename State>
class GuardedReader {
 public:
  // Makes the state of a new reading thread, on the owner's thread, given the thread's watch (to
  // wrap a FileSystem in, or to bracket an ioctl with Begin/End). The state is released on the
  // reading thread.
  using MakeState = std::function<std::shared_ptr<State>(CallWatch& watch)>;
  using Read = std::function<void(State& state)>;

  GuardedReader(GuardedReaderOptions options, MakeState make)
      : options_(std::move(options)), make_(std::move(make)) {}
  // Stop().
  ~GuardedReader() { Stop(); }
  GuardedReader(const GuardedReader&) = delete;
  GuardedReader& operator=(const GuardedReader&) = delete;

  // Makes `read` on the reading thread (started, with a new state, if there is none) and waits.
  // Ok: it ran to its end (its answer is in state()). Unavailable: it was not made (too many
  // threads given up on), or a call of it was stuck: then `stuck` (if not null) gets that call,
  // and the thread and its state are given up on.
  Status Run(Read read, std::optional<StuckCalls::Call>* stuck = nullptr) {
    if (thread_ == nullptr) {
      if (options_.stuck->abandoned_threads() >= options_.max_abandoned)
        return Status::Unavailable(std::to_string(options_.stuck->abandoned_threads()) +
                                   " reading threads are stuck in the kernel");
      thread_ = std::make_unique<ReadingThread>(options_.stuck);
      std::shared_ptr<State> state = make_(thread_->watch());
      state_ = state.get();
      thread_->Keep(std::move(state));
    }
    State* state = state_;
    std::optional<StuckCalls::Call> taken =
        thread_->Run([state, read = std::move(read)] { read(*state); }, options_.deadline);
    if (!taken) return Status::Ok();
    ++stalls_;
    thread_.reset();  // spent: detached, it ends on its own once the call returns
    state_ = nullptr;
    if (stuck != nullptr) *stuck = *taken;
    return Status::Unavailable(
        taken->what + " did not return within " +
        std::to_string(
            std::chrono::duration_cast<std::chrono::milliseconds>(options_.deadline).count()) +
        " ms: stuck in the kernel");
  }

  // The state of the current reading thread; null before the first Run(), after a give-up and
  // after Stop(). Between reads only.
  State* state() const { return state_; }

  // Stops and joins the reading thread (idle between reads: never waits on the kernel); its state
  // is released on it. The next Run() starts a new one.
  void Stop() {
    if (thread_ != nullptr) thread_->Stop();
    thread_.reset();
    state_ = nullptr;
  }

  const std::shared_ptr<StuckCalls>& stuck() const { return options_.stuck; }
  // Stuck calls taken so far (each gave up one thread).
  uint64_t stalls() const { return stalls_; }
  std::chrono::nanoseconds deadline() const { return options_.deadline; }

 private:
  const GuardedReaderOptions options_;
  const MakeState make_;
  std::unique_ptr<ReadingThread> thread_;
  State* state_ = nullptr;  // kept by thread_'s thread
  uint64_t stalls_ = 0;
};

}  // namespace rocewatch
