#pragma once
// `rocewatch run` in-process: the Daemon of lib/daemon/run_command.h, on a FakeHostEnv whose file
// system is the test's (so that tests can inject faults below it) with the system clock, serving
// on 127.0.0.1:<free port>. The daemon's loop runs on its own thread, as in `rocewatch run`, and
// serves /metrics and /api/v1/findings the daemon's way (built on the loop when a request asks);
// polls are driven by the test (Poll(): the loop polls and the test waits for it; the periodic
// poll is an hour apart), while scrapers hit the real HTTP endpoint from other threads.
// Between two Poll() calls the loop touches nothing of the test's file system.
// The daemon's procfs is an empty directory of the object's own, never the host's /proc: the
// processes of the machine (other tests among them) come and go, and a node-wide series such as
// rocewatch_consumer_blind_processes would follow them.

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/clock.h"
#include "core/loop_requests.h"
#include "daemon/options.h"
#include "daemon/run_command.h"
#include "os/file_system.h"
#include "support/fake_host_env.h"
#include "support/temp_dir.h"

namespace rocewatch {

class InProcessDaemon {
 public:
  // REQUIRES: fs outlives the object. Start() must succeed before Poll()/port().
  // Every poll lists and reads everything, with open/read/close (tests remove and re-create whole
  // devices between polls: a kept descriptor would read the deleted file).
  InProcessDaemon(const FileSystem& fs, const std::string& sysfs_root);
  // Stops the loop (the components flush) and the server.
  ~InProcessDaemon();

  // Daemon::Start (starts the components, takes the first snapshot, starts serving), then runs
  // the loop on its own thread.
  Status Start();
  // One poll on the loop thread, as the daemon's interval timer does it; returns the source's
  // status once the poll is done.
  Status Poll();

  // How long a read may stay in flight before it is taken as stuck (Daemon::Resources); set
  // before Start().
  void set_read_deadline(Duration deadline) { read_deadline_ = deadline; }
  // Where the daemon reads recordings (e.g. <root>/rocewatch/ethtool/); set before Start().
  void set_host_root(const std::string& root) { options_.common.paths.host_root = root; }
  int port() const { return daemon_->port(); }
  // The reads stuck now and the reading threads given up on (daemon/guarded_snapshot_source.h).
  const StuckCalls& stuck_reads() const { return daemon_->stuck_reads(); }
  // Findings documents the daemon built so far.
  uint64_t findings_builds() const { return daemon_->findings_builds(); }
  // Expositions built so far (GET /metrics): as findings_builds().
  uint64_t exposition_builds() const { return daemon_->exposition_builds(); }

 private:
  // Runs `task` on the loop thread and waits until it is done.
  void OnLoop(std::function<void()> task);

  SystemClock clock_;
  TempDir procfs_dir_;  // the daemon's procfs root: empty, no process to find
  FakeHostEnv host_;
  RunOptions options_;
  Duration read_deadline_ = Daemon::Resources{}.read_deadline;
  std::unique_ptr<Daemon> daemon_;
  std::mutex task_mutex_;
  std::function<void()> task_;  // GUARDED_BY(task_mutex_): what the loop runs when asked
  std::unique_ptr<LoopRequests> tasks_;
  std::thread loop_thread_;
};

// The exposition without what changes from poll to poll (timestamps, poll durations, error
// counters) and without the traffic detector's series (rocewatch_traffic_*:
// it samples at most once per its own minimum interval, so back-to-back test polls leave it a
// poll behind): two polls of the same sysfs tree give the same stable text.
std::string StableExposition(const std::string& exposition);

}  // namespace rocewatch
