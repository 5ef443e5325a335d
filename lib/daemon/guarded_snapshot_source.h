#pragma once
// A SnapshotSource whose snapshots are taken on a reading thread of their own, so that a read that
// never returns (a wedged driver's sysfs attribute, a FIFO planted in a tree, a verbs ioctl) cannot
// stop the event loop. docs/design.md ("Reads that cannot wedge the loop") says why this shape.
//
// TakeInto hands the poll to the reading thread (a GuardedReader, os/guarded_reader.h) and waits
// for it. Every call that thread makes to
// the host goes through its CallWatch (os/call_watch.h: a WatchedFileSystem, a
// WatchedGidTableSource); the loop looks every `call_deadline`, and a call still in flight that was
// already in flight at the last look (stuck for one to two deadlines) is taken as stuck:
//   - the call is listed in StuckCalls (source and path: what rocewatch_source_stalled and the
//     source_stalled finding report), and no thread makes it again until it returns;
//   - the reading thread is given up on: detached, never joined, every later call of it refused, so
//     that when the stuck call does return it finishes at once and frees what it owned (its
//     source: the poller, its descriptors, its snapshot buffer);
//   - a new reading thread with a new source (from the factory) takes the poll again, the stuck
//     call now failing at once (counted as a read error: the rest of the node is read).
// At most `max_abandoned` threads are given up on at once; past that, and after `max_attempts`
// stuck calls in one TakeInto, it fails Unavailable, naming the stuck calls (the Monitor counts
// the error and keeps serving the last snapshot it had).
//
// A source built while a thread is given up on gets `degraded` true (keep no descriptors: those of
// the stuck thread are still open and count against the process's limit); once no given-up thread
// is left, the next TakeInto builds a source with descriptors again.
//
// Threading: TakeInto, ExpectChange and the destructor on the loop thread. The reading thread runs
// only while TakeInto waits for it (the handoff under a mutex orders its writes before the loop's
// reads), so a source needs no locks of its own. stuck() is thread-safe.

#include <functional>
#include <memory>
#include <string>

#include "core/clock.h"
#include "daemon/snapshot_source.h"
#include "os/call_watch.h"
#include "os/file_system.h"
#include "os/guarded_reader.h"

namespace rocewatch {

struct ReadDeadlineOptions {
  // How long one call may stay in flight before it is taken as stuck: between one and two of
  // these (the loop looks every call_deadline). A sysfs attribute read takes microseconds, a
  // firmware-backed counter milliseconds.
  Duration call_deadline = std::chrono::seconds(2);
  // Reading threads one TakeInto starts at most; each one that gets stuck costs one to two
  // deadlines, so a poll holds the loop (and a SIGTERM waits) at most about
  // max_attempts x 2 x call_deadline longer than its reads take.
  int max_attempts = 3;
  // Reading threads given up on and not finished yet, at most.
  int max_abandoned = 8;
};

class GuardedSnapshotSource final : public SnapshotSource {
 public:
  // What a reading thread needs to build its source: a FileSystem watched by the thread's
  // CallWatch, the watch itself (for calls that do not go through a FileSystem), and whether to
  // keep no descriptors.
  struct Tools {
    const FileSystem& fs;
    CallWatch& watch;
    bool degraded;
  };
  // Builds a source on Tools; the source is owned by the reading thread's state and destroyed on
  // that thread (a given-up thread destroys it when its stuck call returns).
  using SourceFactory = std::function<std::unique_ptr<SnapshotSource>(const Tools& tools)>;

  // REQUIRES: base outlives this object and every reading thread given up on (the daemon's file
  // system lives until the process exits); factory and what it captures likewise.
  GuardedSnapshotSource(const FileSystem& base, SourceFactory factory, std::string gid_source_name,
                        ReadDeadlineOptions options = {});
  ~GuardedSnapshotSource() override;

  StatusOr<NodeSnapshot> Take() override;
  Status TakeInto(NodeSnapshot& snapshot) override;
  void ExpectChange() override { expect_change_ = true; }
  const char* gid_source_name() const override { return gid_source_name_.c_str(); }

  // The calls stuck now, and the reading threads given up on. Thread-safe.
  const StuckCalls& stuck() const { return *stuck_; }
  // The same, for other reading threads to report into (the ethtool component's).
  const std::shared_ptr<StuckCalls>& shared_stuck() const { return stuck_; }
  // Stuck calls taken so far (each gave up one thread).
  uint64_t stalls() const { return reader_->stalls(); }

 private:
  struct PollState;  // a reading thread's: its watched file system, source and buffer

  const SourceFactory factory_;
  const std::string gid_source_name_;
  const ReadDeadlineOptions options_;
  const std::shared_ptr<StuckCalls> stuck_ = std::make_shared<StuckCalls>();
  std::unique_ptr<GuardedReader<PollState>> reader_;
  bool expect_change_ = false;
};

}  // namespace rocewatch
