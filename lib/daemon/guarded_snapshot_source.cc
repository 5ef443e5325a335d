#include "daemon/guarded_snapshot_source.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "os/watched_file_system.h"

namespace rocewatch {

// Shared by the loop and the reading thread; the thread holds it until it finishes, so a thread
// given up on keeps its source, buffer and watch alive for as long as it needs them.
struct GuardedSnapshotSource::Reader {
  Reader(std::shared_ptr<StuckCalls> stuck, const FileSystem& base)
      : watch(std::move(stuck)), fs(base, watch, "sysfs") {}

  CallWatch watch;
  WatchedFileSystem fs;
  bool degraded = false;
  std::unique_ptr<SnapshotSource> source;  // built and destroyed on the reading thread
  NodeSnapshot buffer;                     // what the thread polls into

  std::mutex mutex;
  std::condition_variable wake;      // to the thread: a poll, or quit
  std::condition_variable finished;  // to the loop: the poll is done
  bool poll = false;                 // GUARDED_BY(mutex)
  bool expect_change = false;        // GUARDED_BY(mutex)
  bool done = false;                 // GUARDED_BY(mutex)
  bool quit = false;                 // GUARDED_BY(mutex)
  Status result;                     // GUARDED_BY(mutex)
};

void GuardedSnapshotSource::RunReader(std::shared_ptr<Reader> reader, SourceFactory factory) {
  reader->source = factory({reader->fs, reader->watch, reader->degraded});
  std::unique_lock<std::mutex> lock(reader->mutex);
  while (true) {
    reader->wake.wait(lock, [&] { return reader->poll || reader->quit; });
    if (reader->quit) break;
    const bool expect_change = std::exchange(reader->expect_change, false);
    reader->poll = false;
    lock.unlock();
    if (expect_change) reader->source->ExpectChange();
    Status result = reader->source->TakeInto(reader->buffer);
    lock.lock();
    reader->result = std::move(result);
    reader->done = true;
    reader->finished.notify_all();
  }
  lock.unlock();
  reader->source.reset();  // its descriptors are closed on this thread
  if (reader->watch.abandoned()) reader->watch.stuck()->CountAbandonedThread(-1);
}

GuardedSnapshotSource::GuardedSnapshotSource(const FileSystem& base, SourceFactory factory,
                                             std::string gid_source_name,
                                             ReadDeadlineOptions options)
    : base_(base),
      factory_(std::move(factory)),
      gid_source_name_(std::move(gid_source_name)),
      options_(options) {}

GuardedSnapshotSource::~GuardedSnapshotSource() { StopReader(); }

void GuardedSnapshotSource::StopReader() {
  if (reader_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(reader_->mutex);
    reader_->quit = true;
  }
  reader_->wake.notify_all();
  thread_.join();  // idle between polls: returns at once
  reader_.reset();
}

void GuardedSnapshotSource::StartReader() {
  reader_ = std::make_shared<Reader>(stuck_, base_);
  reader_->degraded = stuck_->abandoned_threads() > 0;
  thread_ = std::thread(RunReader, reader_, factory_);
}

void GuardedSnapshotSource::AbandonReader() {
  stuck_->CountAbandonedThread(1);  // before the thread can see quit and count itself out
  {
    std::lock_guard<std::mutex> lock(reader_->mutex);
    reader_->quit = true;  // seen once the stuck call returns and the poll finishes
  }
  reader_->wake.notify_all();
  thread_.detach();
  reader_.reset();
}

bool GuardedSnapshotSource::AwaitPoll() {
  std::unique_lock<std::mutex> lock(reader_->mutex);
  std::optional<StuckCalls::Call> stuck = reader_->watch.AwaitOrTakeStuck(
      lock, reader_->finished, options_.call_deadline, [&] { return reader_->done; });
  if (!stuck) return true;
  spdlog::warn(
      "{} read stuck for over {} ms: {}; its reading thread is given up on and the read "
      "is skipped until it returns",
      stuck->source,
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.call_deadline).count(),
      stuck->what);
  return false;
}

Status GuardedSnapshotSource::TakeInto(NodeSnapshot& snapshot) {
  // A source built without descriptors while a thread was given up on gets them back once none
  // is left.
  if (reader_ != nullptr && reader_->degraded && stuck_->abandoned_threads() == 0) StopReader();
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    if (reader_ == nullptr) {
      if (stuck_->abandoned_threads() >= options_.max_abandoned) break;
      StartReader();
    }
    {
      std::lock_guard<std::mutex> lock(reader_->mutex);
      reader_->poll = true;
      reader_->done = false;
      reader_->expect_change = std::exchange(expect_change_, false) || reader_->expect_change;
    }
    reader_->wake.notify_all();
    if (AwaitPoll()) {
      std::lock_guard<std::mutex> lock(reader_->mutex);
      std::swap(snapshot, reader_->buffer);  // the thread polls into the old one next time
      return reader_->result;
    }
    ++stalls_;
    AbandonReader();
    expect_change_ = true;  // the new source reads everything anyway; keep the request
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
