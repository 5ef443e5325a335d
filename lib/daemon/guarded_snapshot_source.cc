#include "daemon/guarded_snapshot_source.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "os/watched_file_system.h"

namespace rocewatch {

// A reading thread's: built on the loop with the thread's watch, released on the thread (a thread
// given up on keeps its source, descriptors and buffer until its stuck call returns).
struct GuardedSnapshotSource::PollState {
  PollState(const FileSystem& base, CallWatch& call_watch, bool keep_no_descriptors)
      : watch(call_watch), fs(base, call_watch, "sysfs"), degraded(keep_no_descriptors) {}

  CallWatch& watch;
  WatchedFileSystem fs;
  const bool degraded;
  std::unique_ptr<SnapshotSource> source;  // built on the reading thread at its first poll
  NodeSnapshot buffer;                     // what the thread polls into
  Status result;
};

GuardedSnapshotSource::GuardedSnapshotSource(const FileSystem& base, SourceFactory factory,
                                             std::string gid_source_name,
                                             ReadDeadlineOptions options)
    : factory_(std::move(factory)),
      gid_source_name_(std::move(gid_source_name)),
      options_(options) {
  GuardedReaderOptions reader;
  reader.stuck = stuck_;
  reader.deadline = options_.call_deadline;
  reader.max_abandoned = options_.max_abandoned;
  reader_ =
      std::make_unique<GuardedReader<PollState>>(reader, [&base, stuck = stuck_](CallWatch& watch) {
        return std::make_shared<PollState>(base, watch, stuck->abandoned_threads() > 0);
      });
}

GuardedSnapshotSource::~GuardedSnapshotSource() = default;

Status GuardedSnapshotSource::TakeInto(NodeSnapshot& snapshot) {
  // A source built without descriptors while a thread was given up on gets them back once none
  // is left.
  if (reader_->state() != nullptr && reader_->state()->degraded && stuck_->abandoned_threads() == 0)
    reader_->Stop();
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    const bool expect_change = std::exchange(expect_change_, false);
    std::optional<StuckCalls::Call> stuck;
    Status ran = reader_->Run(
        [factory = factory_, expect_change](PollState& state) {
          if (!state.source) {
            state.source = factory({state.fs, state.watch, state.degraded});
          } else if (expect_change) {
            state.source->ExpectChange();
          }
          state.result = state.source->TakeInto(state.buffer);
        },
        &stuck);
    if (ran.ok()) {
      std::swap(snapshot, reader_->state()->buffer);  // the thread polls into the old one next
      return reader_->state()->result;
    }
    expect_change_ = expect_change;  // keep the request for the next source
    if (!stuck) break;               // too many threads given up on
    spdlog::warn(
        "{} read stuck for over {} ms: {}; its reading thread is given up on and the read "
        "is skipped until it returns",
        stuck->source,
        std::chrono::duration_cast<std::chrono::milliseconds>(options_.call_deadline).count(),
        stuck->what);
  }
  std::string calls;
  for (const StuckCalls::Call& call : stuck_->List())
    calls += (calls.empty() ? "" : ", ") + call.what;
  return Status::Unavailable("reads stuck in the kernel (" + calls + "); " +
                             std::to_string(stuck_->abandoned_threads()) +
                             " reading thread(s) given up on");
}

StatusOr<NodeSnapshot> GuardedSnapshotSource::Take() {
  NodeSnapshot snapshot;
  Status taken = TakeInto(snapshot);
  if (!taken.ok()) return taken;
  return snapshot;
}

}  // namespace rocewatch
