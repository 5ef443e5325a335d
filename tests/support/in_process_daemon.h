#pragma once
// The pipeline of `rocewatch run`, built in-process on any FileSystem so that tests can inject
// faults below it: SysfsGidTableSource + SysfsPoller -> Monitor with the daemon's components ->
// SnapshotCollectable -> MetricsServer on 127.0.0.1:<free port>. Polls are driven by the test
// (Poll()), on the test's thread, while scrapers hit the real HTTP endpoint from other threads:
// the same threading as the daemon (one loop thread, the exposer's threads reading snapshots).

#include <memory>
#include <string>

#include "app/inventory_snapshot_source.h"
#include "app/monitor.h"
#include "app/options.h"
#include "core/clock.h"
#include "core/event_loop.h"
#include "export/metrics_server.h"
#include "os/file_system.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_poller.h"

namespace rocewatch {

class InProcessDaemon {
 public:
  // REQUIRES: fs outlives the object. Start() must succeed before Poll()/port().
  // Every poll lists and reads everything, with open/read/close (tests remove and re-create whole
  // devices between polls: a kept descriptor would read the deleted file).
  InProcessDaemon(const FileSystem& fs, const std::string& sysfs_root);
  ~InProcessDaemon();

  // Starts the components, takes the first snapshot, starts serving. Errors as Monitor::Start and
  // MetricsServer::Start.
  Status Start();
  // One poll, as the daemon's interval timer does it; returns the source's status.
  Status Poll() { return monitor_.PollNow("test"); }

  int port() const { return server_->port(); }
  Monitor& monitor() { return monitor_; }
  const NodeSnapshot& snapshot() const { return monitor_.latest_snapshot(); }

 private:
  SystemClock clock_;
  EventLoop loop_{clock_};
  SysfsGidTableSource gids_;
  SysfsPoller poller_;
  InventorySnapshotSource source_;
  RunOptions options_;
  const FileSystem& fs_;
  Monitor monitor_;
  std::shared_ptr<SnapshotCollectable> metrics_ = std::make_shared<SnapshotCollectable>();
  std::unique_ptr<MetricsServer> server_;
};

// The exposition without what changes from poll to poll (timestamps, poll durations, error
// counters, exposer self metrics) and without the traffic detector's series (rocewatch_traffic_*:
// it samples at most once per its own minimum interval, so back-to-back test polls leave it a
// poll behind): two polls of the same sysfs tree give the same stable text.
std::string StableExposition(const std::string& exposition);

}  // namespace rocewatch
