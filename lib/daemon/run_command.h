#pragma once
// `rocewatch run`: the daemon. Watches, detects and serves metrics until SIGTERM/SIGINT.

#include <atomic>
#include <cstddef>
#include <memory>

#include "core/event_loop.h"
#include "core/on_demand.h"
#include "daemon/components.h"
#include "daemon/gid_source_factory.h"
#include "daemon/guarded_snapshot_source.h"
#include "daemon/host_env.h"
#include "daemon/monitor.h"
#include "daemon/options.h"
#include "daemon/service_status_reporter.h"
#include "export/metrics_server.h"
#include "export/served_text.h"
#include "link_quality/ethtool_component.h"
#include "os/state_file_lock.h"
#include "traffic/traffic_component.h"

namespace rocewatch {

// The daemon's pipeline, wired once for `rocewatch run` and for tests: the GID source, the sysfs
// poller, the Monitor with every component, the metrics server and the systemd status, all on
// `env`. Start() leaves it serving with its first snapshot taken; polls then come from Run() (the
// loop's timers, or what a test asks the loop to do). /metrics, /api/v1/findings and /api/v1/state
// are built on
// the loop when a request asks for them (core/on_demand.h), so they are answered while Run() runs;
// a request the loop does not answer within 2 s gets the last one built.
// Threading: the caller's thread is the loop thread; the metrics server has its own threads.
class Daemon {
 public:
  // Sysfs descriptors the daemon may keep open (half for GID slots, half for the counters and
  // port attributes); RunDaemon derives it from the open-file limit.
  struct Resources {
    size_t kept_descriptors = 4096;
    // A poll's read in flight for one to two of these is taken as stuck and skipped until it
    // returns (daemon/guarded_snapshot_source.h). No flag: tests shorten it.
    Duration read_deadline = ReadDeadlineOptions{}.call_deadline;
  };

  // Errors: Unavailable when another daemon holds options.state_file; the GID source, the
  // listen port or the first snapshot failing (a one-line reason, nothing written).
  // REQUIRES: env outlives the daemon.
  static StatusOr<std::unique_ptr<Daemon>> Start(const HostEnv& env, const RunOptions& options,
                                                 Resources resources);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Runs the event loop until loop().Stop(), then stops the components (state flushed).
  void Run();

  EventLoop& loop() { return loop_; }
  Monitor& monitor() { return *monitor_; }
  int port() const { return server_->port(); }
  const char* gid_source_name() { return gids_.source().name(); }
  // The reads stuck now and the reading threads given up on (tests). Thread-safe.
  const StuckCalls& stuck_reads() const { return source_->stuck(); }
  // Findings documents built so far (tests). Thread-safe.
  uint64_t findings_builds() const { return findings_->builds(); }
  // Expositions built so far (tests). Thread-safe.
  uint64_t exposition_builds() const { return metrics_->builds(); }

 private:
  Daemon(const HostEnv& env, const RunOptions& options);
  Status Open(Resources resources);
  Status LockStateFile();
  Status OpenSnapshotSource(const Resources& resources);
  ComponentSet AddComponents(Duration read_deadline);
  Status Serve();
  // A poll was published and the last one completed within three intervals (at least 10 s): the
  // /healthz answer and the systemd watchdog's. Thread-safe.
  bool Live() const;
  Status CreateDocuments(const std::string& boot_id, const TrafficComponent* traffic,
                         const EthtoolComponent* ethtool);

  const HostEnv& env_;
  const RunOptions options_;
  std::unique_ptr<StateFileLock> state_lock_;
  EventLoop loop_;
  OpenedGidSource gids_;
  // The sysfs poller and GID source, on a reading thread that a stuck read cannot take the loop
  // with.
  std::unique_ptr<GuardedSnapshotSource> source_;
  std::unique_ptr<Monitor> monitor_;
  std::unique_ptr<OnDemand<ServedText, std::string>> metrics_;  // GET /metrics
  std::unique_ptr<OnDemand<std::string>> findings_;             // GET /api/v1/findings
  std::unique_ptr<OnDemand<std::string>> state_;                // GET /api/v1/state
  std::atomic<bool> published_{false};  // /healthz: 503 until the first poll was published
  std::unique_ptr<MetricsServer> server_;
  std::unique_ptr<ServiceStatusReporter> service_;
  bool stopped_ = false;
};

// Returns the process exit status: 0 after a clean stop (SIGTERM, SIGINT), 1 if it could not
// start. REQUIRES: called before any other thread exists (it blocks the stop signals).
int RunDaemon(const HostEnv& env, const RunOptions& options);

}  // namespace rocewatch
