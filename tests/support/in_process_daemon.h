#pragma once
// `rocewatch run` in-process: the Daemon of lib/app/run_command.h, on a FakeHostEnv whose file
// system is the test's (so that tests can inject faults below it) with the system clock, serving
// on 127.0.0.1:<free port>. Polls are driven by the test (Poll()), on the test's thread, while
// scrapers hit the real HTTP endpoint from other threads: the same threading as the daemon (one
// loop thread, the exposer's threads reading snapshots).

#include <memory>
#include <string>

#include "app/options.h"
#include "app/run_command.h"
#include "core/clock.h"
#include "os/file_system.h"
#include "support/fake_host_env.h"

namespace rocewatch {

class InProcessDaemon {
 public:
  // REQUIRES: fs outlives the object. Start() must succeed before Poll()/port().
  // Every poll lists and reads everything, with open/read/close (tests remove and re-create whole
  // devices between polls: a kept descriptor would read the deleted file).
  InProcessDaemon(const FileSystem& fs, const std::string& sysfs_root);

  // Daemon::Start: starts the components, takes the first snapshot, starts serving.
  Status Start();
  // One poll, as the daemon's interval timer does it; returns the source's status.
  Status Poll() { return monitor().PollNow("test"); }

  int port() const { return daemon_->port(); }
  Monitor& monitor() { return daemon_->monitor(); }
  const NodeSnapshot& snapshot() { return monitor().latest_snapshot(); }
  FakeHostEnv& host() { return host_; }

 private:
  SystemClock clock_;
  FakeHostEnv host_;
  RunOptions options_;
  std::unique_ptr<Daemon> daemon_;
};

// The exposition without what changes from poll to poll (timestamps, poll durations, error
// counters, exposer self metrics) and without the traffic detector's series (rocewatch_traffic_*:
// it samples at most once per its own minimum interval, so back-to-back test polls leave it a
// poll behind): two polls of the same sysfs tree give the same stable text.
std::string StableExposition(const std::string& exposition);

}  // namespace rocewatch
