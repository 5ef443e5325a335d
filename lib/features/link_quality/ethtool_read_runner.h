#pragma once
// The ethtool component's driver calls (ETHTOOL_GSTATS, the ethtool netlink requests, module
// EEPROM pages, the LINKSTATE_GET of a link-down reason) made on a reading thread of the
// component's own, behind a deadline, so that a driver wedged under RTNL cannot stop the event
// loop. docs/design.md ("Reads that cannot wedge the loop") says why this shape.
//
// statistics() and netlink() are sources whose every call is handed to the reading thread; the
// caller waits for the answer, looking every `call_deadline` (as GuardedSnapshotSource does). A
// call in flight at two looks in a row (stuck for one to two deadlines) is taken as stuck:
//   - it is listed in StuckCalls with source "ethtool", as "<call> <netdev>" (what
//     rocewatch_source_stalled, the source_stalled finding and /healthz report);
//   - the caller gets Unavailable, and every later call for that netdev fails Unavailable at once,
//     without reaching the kernel, until the stuck call returns: the other netdevs are still read;
//   - the reading thread is given up on: detached, never joined, every later call of it refused;
//     it keeps the sources it was using and closes them when its stuck call returns;
//   - the next call starts a new reading thread with sources opened anew (`reopen`).
// At most `max_abandoned` threads are given up on at once (counted in StuckCalls, which may be
// shared with other reading threads); past that, live calls fail Unavailable until one finishes.
//
// Threading: everything on one thread (the loop), but stuck(). The reading thread touches only its
// own sources; calls and answers pass under the reader's mutex.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/clock.h"
#include "ethtool/ethtool_sources.h"
#include "os/call_watch.h"
#include "os/file_system.h"
#include "os/guarded_reader.h"

namespace rocewatch {

struct EthtoolReadDeadline {
  // StuckCalls to report into (null: a StuckCalls of the runner's own).
  std::shared_ptr<StuckCalls> stuck{};
  // How long one call may stay in flight before it is taken as stuck: one to two of these.
  Duration call_deadline{std::chrono::seconds(2)};
  // Reading threads given up on and not finished yet, at most.
  int max_abandoned{8};
  // Opens the kernel's ethtool interfaces for a new reading thread after one was given up on
  // (HostEnv::ethtool). Empty: a new thread has no kernel sources (its calls fail Unavailable).
  std::function<EthtoolSources()> reopen{};
};

class EthtoolReadRunner {
 public:
  EthtoolReadRunner(EthtoolSources sources, EthtoolReadDeadline deadline);
  // Joins an idle reading thread; one given up on was detached already.
  ~EthtoolReadRunner();
  EthtoolReadRunner(const EthtoolReadRunner&) = delete;
  EthtoolReadRunner& operator=(const EthtoolReadRunner&) = delete;

  // Stops and joins the reading thread. It is idle (a call's caller waits for it, or gives it up),
  // so this never waits on the kernel. The next call starts one again.
  void Stop() { reader_->Stop(); }

  // A file system whose every call is made on the reading thread through `base`, named by its
  // path (the poller's class/net/<netdev>/speed, whose show() asks the driver under RTNL, and the
  // recordings under the host root): a stuck one is taken as any stuck call, and the path is
  // refused at once (IoError ETIME) until it returns. Valid while the runner lives; loop thread
  // only. REQUIRES: base outlives the runner and every reading thread given up on.
  std::unique_ptr<FileSystem> FilesThrough(const FileSystem& base);

  // Sources whose calls run on the reading thread; null where the sources given at construction
  // had none. Valid while the runner lives; loop thread only.
  DriverStatisticsSource* statistics() { return statistics_.get(); }
  EthtoolNetlinkSource* netlink() { return netlink_.get(); }

  // The calls stuck now. Thread-safe.
  const std::shared_ptr<StuckCalls>& stuck() const { return stuck_; }
  // Stuck calls taken so far (each gave up one thread).
  uint64_t stalls() const { return reader_->stalls(); }

  // A call on the reading thread's sources.
  using Call = std::function<void(EthtoolSources& sources)>;
  // Runs `call` on the reading thread as `name` of `netdev` (e.g. "ETHTOOL_GSTATS", "eth0"). Ok
  // when it ran to its end; Unavailable when it was not made (the netdev has a call stuck, too
  // many threads given up on) or got stuck. `call` must keep what it writes alive itself (a
  // shared_ptr): a call given up on returns after the caller has gone.
  Status Run(const std::string& name, const std::string& netdev, Call call);

 private:
  struct ReaderState;  // a reading thread's sources
  class Statistics;
  class Netlink;
  class Files;

  // The call of `netdev` stuck now, if any.
  std::optional<std::string> StuckCallOf(const std::string& netdev) const;

  const EthtoolReadDeadline deadline_;
  const std::shared_ptr<StuckCalls> stuck_;
  EthtoolSources first_;  // for the first reading thread
  bool first_taken_ = false;
  std::unique_ptr<DriverStatisticsSource> statistics_;
  std::unique_ptr<EthtoolNetlinkSource> netlink_;
  std::unique_ptr<GuardedReader<ReaderState>> reader_;
};

}  // namespace rocewatch
