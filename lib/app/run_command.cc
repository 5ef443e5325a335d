#include "app/run_command.h"

#include <malloc.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <atomic>

#include "app/components.h"
#include "app/gid_source_factory.h"
#include "app/inventory_snapshot_source.h"
#include "app/monitor.h"
#include "app/service_status_reporter.h"
#include "build_info.h"
#include "core/duration.h"
#include "export/metrics_server.h"
#include "gid/state_file_lock.h"
#include "os/attribute_reader.h"
#include "os/boot_id.h"
#include "os/open_file_limit.h"
#include "sysfs/sysfs_poller.h"

namespace rocewatch {
namespace {

// SIGTERM, SIGINT and SIGHUP as a readable fd, so that shutdown is an ordinary loop event. Blocks
// the signals in the calling thread before any other thread exists (threads inherit the mask).
class SignalFd {
 public:
  SignalFd() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  }
  ~SignalFd() {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }
  // The signal number read, or 0.
  int Read() {
    signalfd_siginfo info;
    if (read(fd_, &info, sizeof(info)) != sizeof(info)) return 0;
    return static_cast<int>(info.ssi_signo);
  }

 private:
  int fd_ = -1;
};

}  // namespace

int RunDaemon(const RunOptions& options) {
  // One malloc arena and a low trim threshold, set before any thread starts: otherwise the scrape
  // threads' copies of the exposition live in arenas of their own and freed memory stays mapped
  // (peak RSS 12.5 -> 11.4 MiB on a 16-rail node, docs/benchmarks.md). glibc; a no-op elsewhere.
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_TRIM_THRESHOLD, 64 * 1024);
  SignalFd signals;
  if (signals.fd() < 0) {
    spdlog::error("cannot create signalfd");
    return 1;
  }
  // One daemon per state file, checked before anything else: a second daemon must not touch it.
  std::unique_ptr<StateFileLock> state_lock;
  if (!options.state_file.empty()) {
    StatusOr<std::unique_ptr<StateFileLock>> lock = StateFileLock::Acquire(options.state_file);
    if (lock.ok()) {
      state_lock = std::move(lock).value();
    } else if (lock.status().code() == StatusCode::kUnavailable) {
      spdlog::error("{}", lock.status().message());
      return 1;
    } else {  // e.g. a read-only state directory: writes fail (and are counted) anyway
      spdlog::warn("cannot lock the state file ({}): going on without the one-daemon check",
                   lock.status().ToString());
    }
  }
  SystemClock clock;
  // The daemon reads sysfs attributes, its state file and /proc/sys files: one read() each.
  PosixFileSystem fs(PosixFileSystem::Options{.stop_at_short_read = true});
  // Processes' maps and environ are seq_file-backed and read short before their end.
  PosixFileSystem procfs;
  EventLoop loop(clock);
  const HostPaths& paths = options.common.paths;

  // One descriptor kept open per polled sysfs attribute (os/attribute_reader.h): the counters
  // and port attributes first, the rest for the sysfs GID slots.
  StatusOr<uint64_t> open_file_limit = RaiseOpenFileLimit();
  const size_t descriptor_budget =
      KeptDescriptorBudget(open_file_limit.ok() ? *open_file_limit : 1024);
  const size_t gid_budget = descriptor_budget / 2;
  spdlog::info("open-file limit {}: up to {} sysfs descriptors kept open",
               open_file_limit.ok() ? *open_file_limit : 0, descriptor_budget);
  StatusOr<OpenedGidSource> gids = OpenGidSource(options.common.gid_source, fs, paths, gid_budget);
  if (!gids.ok()) {
    spdlog::error("{}", gids.status().message());
    return 1;
  }
  if (!gids->fallback_reason().empty())
    spdlog::info("GIDs through sysfs: verbs unavailable ({})", gids->fallback_reason());
  SysfsPoller poller(fs, paths.sysfs_root, &gids->source(), descriptor_budget - gid_budget);
  InventorySnapshotSource source(
      poller, gids->source(), clock, GidReadPolicy{options.gid_backstop, std::chrono::seconds(10)},
      SysfsCadence{options.slow_counter_interval, options.listing_backstop});
  Monitor monitor(loop, source, MonitorOptions{options.interval, options.settle});
  for (auto& component : BuildComponents({options, fs, gids->verbs_devices(), &procfs}))
    monitor.AddComponent(std::move(component));

  auto metrics = std::make_shared<SnapshotCollectable>();
  std::atomic<bool> published{false};  // /healthz: 503 until the first exposition is served
  monitor.SetPublishSink([&](std::vector<prometheus::MetricFamily> families) {
    metrics->Publish(std::move(families));
    published.store(true, std::memory_order_release);
  });
  // GET /api/v1/findings: built here, on the loop thread, served as is.
  auto findings = std::make_shared<PublishedDocument>();
  const std::string boot_id = ReadBootId(fs, paths.procfs_root);
  monitor.SetFindingsSink(
      [&](const std::vector<TimedFinding>& current, const std::deque<RecordedEvent>& events) {
        findings->Publish(DaemonFindingsToJson(current, events, boot_id)
                              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      });

  spdlog::info("rocewatch {} ({}) starting: sysfs {}, GIDs through {}, interval {}", kVersion,
               kGitRevision, paths.sysfs_root, gids->source().name(),
               FormatDuration(options.interval));
  // The port is bound before the first snapshot: a start that fails (port in use) must not have
  // written anything. /healthz answers 503 and /metrics is empty until the first poll is published.
  // The loop is stalled when no poll has completed for three intervals (at least 10 s).
  const double stall_after = std::max(10.0, 3 * ToSeconds(options.interval));
  auto live = [&monitor, &clock, &published, stall_after] {
    return published.load(std::memory_order_acquire) &&
           clock.UnixSeconds() - monitor.last_poll_unix() < stall_after;
  };
  StatusOr<std::unique_ptr<MetricsServer>> server =
      MetricsServer::Start(options.listen, metrics, live, findings);
  if (!server.ok()) {
    spdlog::error("{}", server.status().message());
    return 1;
  }
  Status started = monitor.Start();
  if (!started.ok()) {
    spdlog::error("cannot read the RDMA devices: {}", started.ToString());
    return 1;
  }
  spdlog::info("first snapshot: {} RDMA device(s)", monitor.latest_snapshot().devices.size());
  spdlog::info("serving /metrics, /healthz and /api/v1/findings on port {}", (*server)->port());

  // systemd (Type=notify, WatchdogSec=): ready once metrics are real, pings from this loop while
  // polls are fresh, so a stalled daemon is restarted. No-ops without a service manager.
  SystemdNotifier notifier;
  ServiceStatusReporter service(loop, notifier, live);
  service.Start();
  service.Ready(fmt::format("serving {} RDMA device(s) on port {}",
                            monitor.latest_snapshot().devices.size(), (*server)->port()));

  loop.WatchFd(signals.fd(), [&](short) {
    int signo = signals.Read();
    if (signo == 0) return;
    if (signo == SIGHUP) {
      // Nothing to reload: flags are read once, logs go to stderr (no file to re-open).
      spdlog::info(
          "received SIGHUP: ignored (rocewatch reads its flags only at start and logs to "
          "stderr; restart it to change its configuration)");
      return;
    }
    spdlog::info("received {}, stopping", signo == SIGINT ? "SIGINT" : "SIGTERM");
    loop.Stop();
  });
  loop.Run();
  service.Stopping();
  monitor.Stop();
  spdlog::info("stopped");
  return 0;
}

}  // namespace rocewatch
