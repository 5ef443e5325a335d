#include "daemon/run_command.h"

#include <malloc.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "build_info.h"
#include "core/duration.h"
#include "daemon/components.h"
#include "daemon/inventory_snapshot_source.h"
#include "daemon/served_state.h"
#include "daemon/signal_policy.h"
#include "daemon/source_stall_component.h"
#include "export/exposition_writer.h"
#include "gid_drift/watched_gid_table_source.h"
#include "os/attribute_reader.h"
#include "os/boot_id.h"
#include "os/open_file_limit.h"
#include "os/state_file_writer.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_poller.h"
#include "verbs/verbs_gid_table_source.h"

namespace rocewatch {
namespace {

// The signals daemon/signal_policy.h handles, as a readable fd, so that shutdown is an ordinary
// loop event. Blocks them in the calling thread before any other thread exists (threads inherit the
// mask), and ignores SIGPIPE.
class SignalFd {
 public:
  SignalFd() {
    ::signal(SIGPIPE, SIG_IGN);
    sigset_t set = HandledSignals();
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
    last_sender_ = static_cast<pid_t>(info.ssi_pid);
    return static_cast<int>(info.ssi_signo);
  }
  // The pid that sent the signal Read() returned last (0 for the kernel).
  pid_t last_sender() const { return last_sender_; }

 private:
  int fd_ = -1;
  pid_t last_sender_ = 0;
};

// The sysfs inventory with its GID source, owned together: what one reading thread polls
// (daemon/guarded_snapshot_source.h).
class OwnedInventorySource final : public SnapshotSource {
 public:
  OwnedInventorySource(std::unique_ptr<GidTableSource> gids, const FileSystem& fs,
                       const std::string& sysfs_root, size_t max_open, const Clock& clock,
                       GidReadPolicy policy, SysfsCadence cadence)
      : gids_(std::move(gids)),
        poller_(fs, sysfs_root, gids_.get(), max_open),
        source_(poller_, *gids_, clock, policy, cadence) {}

  StatusOr<NodeSnapshot> Take() override { return source_.Take(); }
  Status TakeInto(NodeSnapshot& snapshot) override { return source_.TakeInto(snapshot); }
  void ExpectChange() override { source_.ExpectChange(); }
  const char* gid_source_name() const override { return source_.gid_source_name(); }

 private:
  const std::unique_ptr<GidTableSource> gids_;
  SysfsPoller poller_;
  InventorySnapshotSource source_;
};

}  // namespace

Daemon::Daemon(const HostEnv& env, const RunOptions& options)
    : env_(env), options_(options), loop_(*env.clock) {}

Daemon::~Daemon() {
  server_.reset();  // no scrape reaches the collectable or the monitor after this
  if (monitor_ && !stopped_) monitor_->Stop();
}

StatusOr<std::unique_ptr<Daemon>> Daemon::Start(const HostEnv& env, const RunOptions& options,
                                                Resources resources) {
  std::unique_ptr<Daemon> daemon(new Daemon(env, options));
  Status opened = daemon->Open(resources);
  if (!opened.ok()) return opened;
  return daemon;
}

// /metrics, GET /api/v1/findings and GET /api/v1/state: built on the loop when a request asks for
// them, and only if a poll or an event changed them since the last request; a request waits at
// most 2 s for a busy loop, then gets the last one built.
Status Daemon::CreateDocuments(const std::string& boot_id, const TrafficComponent* traffic,
                               const EthtoolComponent* ethtool) {
  constexpr Duration kRequestWait = std::chrono::seconds(2);
  // The exposition is written to text on the loop too (export/exposition_writer.h), once per
  // change: scrapes of the same exposition share it, and its gzip form (export/served_text.h).
  StatusOr<std::unique_ptr<OnDemand<ServedText, std::string>>> exposition =
      OnDemand<ServedText, std::string>::Create(
          loop_, [this] { return WriteExposition(monitor_->BuildExposition()); }, kRequestWait,
          "/metrics");
  if (!exposition.ok()) return exposition.status();
  metrics_ = std::move(exposition).value();
  StatusOr<std::unique_ptr<OnDemand<std::string>>> findings = OnDemand<std::string>::Create(
      loop_,
      [this, boot_id] {
        return DaemonFindingsToJson(monitor_->timed_findings(), monitor_->recent_events(), boot_id)
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      kRequestWait, "/api/v1/findings");
  if (!findings.ok()) return findings.status();
  findings_ = std::move(findings).value();
  StatusOr<std::unique_ptr<OnDemand<std::string>>> state = OnDemand<std::string>::Create(
      loop_,
      [this, boot_id, traffic, ethtool] {
        const ServedStateInputs inputs{traffic,
                                       ethtool,
                                       &monitor_->latest_snapshot(),
                                       boot_id,
                                       monitor_->last_poll_unix(),
                                       env_.clock->UnixSeconds(),
                                       env_.clock->Now()};
        return DaemonStateToJson(BuildServedState(inputs))
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      kRequestWait, "/api/v1/state");
  if (!state.ok()) return state.status();
  state_ = std::move(state).value();
  return Status::Ok();
}

Status Daemon::Open(Resources resources) {
  if (Status locked = LockStateFile(); !locked.ok()) return locked;
  if (Status opened = OpenSnapshotSource(resources); !opened.ok()) return opened;
  // The typed views stay valid: the Monitor owns the components now.
  const ComponentSet views = AddComponents(resources.read_deadline);
  const std::string boot_id = ReadBootId(*env_.attributes, options_.common.paths.procfs_root);
  if (Status documents = CreateDocuments(boot_id, views.traffic, views.ethtool); !documents.ok())
    return documents;
  monitor_->SetChangeSink([this] {
    metrics_->MarkStale();
    findings_->MarkStale();
    state_->MarkStale();
    if (monitor_->polls() > 0) published_.store(true, std::memory_order_release);
  });
  spdlog::info("rocewatch {} ({}) starting: sysfs {}, GIDs through {}, interval {}", kVersion,
               kGitRevision, options_.common.paths.sysfs_root, gids_.source().name(),
               FormatDuration(options_.interval));
  if (Status served = Serve(); !served.ok()) return served;
  Status ordered = monitor_->OrderComponents();
  if (!ordered.ok()) return ordered;
  Status started = monitor_->Start();
  if (!started.ok())
    return Status::Unavailable("cannot read the RDMA devices: " + started.ToString());
  spdlog::info("first snapshot: {} RDMA device(s)", monitor_->latest_snapshot().devices.size());
  spdlog::info("serving /metrics, /healthz, /api/v1/findings and /api/v1/state on {}:{}{}",
               options_.listen.host.empty() ? "*" : options_.listen.host, server_->port(),
               !options_.api_socket.empty() && server_->unix_socket_status().ok()
                   ? " and on " + options_.api_socket
                   : "");

  // systemd (Type=notify, WatchdogSec=): ready once metrics are real, pings from this loop while
  // polls are fresh, so a stalled daemon is restarted. No-ops without a service manager.
  service_ =
      std::make_unique<ServiceStatusReporter>(loop_, *env_.notifier, [this] { return Live(); });
  service_->Start();
  service_->Ready(fmt::format("serving {} RDMA device(s) on port {}",
                              monitor_->latest_snapshot().devices.size(), server_->port()));
  return Status::Ok();
}

// One daemon per state file, checked before anything else: a second daemon must not touch it.
Status Daemon::LockStateFile() {
  if (!options_.state_file.empty() && env_.lock_state_file) {
    StatusOr<std::unique_ptr<StateFileLock>> lock = env_.lock_state_file(options_.state_file);
    if (lock.ok()) {
      state_lock_ = std::move(lock).value();
      // Temporary files of writers killed between create and rename (os/state_file_writer.h).
      for (const std::string& name : RemoveStaleTemporaryFiles(options_.state_file))
        spdlog::info("removed {} beside the state file: left by a rocewatch that died", name);
    } else if (lock.status().code() == StatusCode::kUnavailable) {
      return lock.status();
    } else {  // e.g. a read-only state directory: writes fail (and are counted) anyway
      spdlog::warn("cannot lock the state file ({}): going on without the one-daemon check",
                   lock.status().ToString());
    }
  }
  return Status::Ok();
}

// The GID source (verbs, else sysfs) and the inventory poller, on a reading thread behind the
// read deadline.
Status Daemon::OpenSnapshotSource(const Resources& resources) {
  const HostPaths& paths = options_.common.paths;
  const FileSystem& fs = *env_.attributes;
  const Clock& clock = *env_.clock;
  const size_t gid_budget = resources.kept_descriptors / 2;
  StatusOr<OpenedGidSource> gids =
      OpenGidSource(options_.common.gid_source, env_.verbs(), fs, paths, gid_budget);
  if (!gids.ok()) return gids.status();
  gids_ = std::move(gids).value();
  if (!gids_.fallback_reason().empty())
    spdlog::info("GIDs through sysfs: verbs unavailable ({})", gids_.fallback_reason());
  // Each reading thread builds its own GID source and poller on its watched file system: a thread
  // given up on keeps its own until its stuck read returns. Through verbs the device set is shared
  // (the GID drift component watches its events on the loop).
  const size_t attribute_budget = resources.kept_descriptors - gid_budget;
  VerbsDeviceSet* verbs_devices = gids_.verbs_devices();
  const GidReadPolicy gid_policy{options_.gid_backstop, defaults::kGidHotWindow};
  const SysfsCadence cadence{options_.slow_counter_interval, options_.listing_backstop};
  auto make_source = [verbs_devices, paths, gid_budget, attribute_budget, &clock, gid_policy,
                      cadence](const GuardedSnapshotSource::Tools& tools) {
    std::unique_ptr<GidTableSource> gid_source;
    if (verbs_devices != nullptr) {
      gid_source = std::make_unique<WatchedGidTableSource>(
          std::make_unique<VerbsGidTableSource>(*verbs_devices), tools.watch);
    } else {
      gid_source = std::make_unique<SysfsGidTableSource>(tools.fs, paths.sysfs_root,
                                                         tools.degraded ? 0 : gid_budget);
    }
    return std::unique_ptr<SnapshotSource>(std::make_unique<OwnedInventorySource>(
        std::move(gid_source), tools.fs, paths.sysfs_root, tools.degraded ? 0 : attribute_budget,
        clock, gid_policy, cadence));
  };
  const ReadDeadlineOptions deadlines{.call_deadline = resources.read_deadline};
  source_ =
      std::make_unique<GuardedSnapshotSource>(fs, make_source, gids_.source().name(), deadlines);
  return Status::Ok();
}

// The Monitor and every component, the source-stall one last; returns the typed views (`all`
// moved into the Monitor).
ComponentSet Daemon::AddComponents(Duration read_deadline) {
  monitor_ = std::make_unique<Monitor>(loop_, *source_,
                                       MonitorOptions{options_.interval, options_.settle});
  ComponentSet components =
      BuildComponents({options_, env_, *env_.attributes, *env_.files, gids_.verbs_devices(),
                       source_->shared_stuck(), read_deadline});
  for (auto& component : components.all) monitor_->AddComponent(std::move(component));
  std::vector<std::string> read_sources = {"sysfs"};
  if (gids_.verbs_devices() != nullptr) read_sources.push_back(gids_.source().name());
  read_sources.push_back("ethtool");  // the ethtool component's driver calls
  read_sources.push_back("procfs");   // the consumers component's scan
  if (components.lldp != nullptr && env_.dcb) read_sources.push_back("dcb");  // the host's PFC
  monitor_->AddComponent(std::make_unique<SourceStallComponent>(
      source_->stuck(), std::move(read_sources), read_deadline));
  components.all.clear();
  return components;
}

bool Daemon::Live() const {
  const double stall_after = std::max(10.0, 3 * ToSeconds(options_.interval));
  return published_.load(std::memory_order_acquire) &&
         env_.clock->UnixSeconds() - monitor_->last_poll_unix() < stall_after;
}

// Binds the port (and the local socket) before the first snapshot: a start that fails (port in
// use) must not have written anything. /metrics, /healthz and the /api/v1 documents answer 503
// "not ready" until the first poll is published.
Status Daemon::Serve() {
  auto health = [this] {
    if (!published_.load(std::memory_order_acquire)) return MetricsServer::Health::kNotReady;
    return Live() ? MetricsServer::Health::kLive : MetricsServer::Health::kStalled;
  };
  // Null (503) until the first poll was published.
  auto metrics_document = [this]() -> std::shared_ptr<const ServedText> {
    std::shared_ptr<const ServedText> document = metrics_->Get();
    return published_.load(std::memory_order_acquire) ? document : nullptr;
  };
  auto findings_document = [this]() -> std::shared_ptr<const std::string> {
    std::shared_ptr<const std::string> document = findings_->Get();
    return published_.load(std::memory_order_acquire) ? document : nullptr;
  };
  auto state_document = [this]() -> std::shared_ptr<const std::string> {
    std::shared_ptr<const std::string> document = state_->Get();
    return published_.load(std::memory_order_acquire) ? document : nullptr;
  };
  // /healthz names the sources with a read stuck in the kernel, and stays 200 for them: the loop
  // is live, and a restart would hang on the same read.
  auto health_note = [this] { return StalledSourcesNote(source_->stuck()); };
  StatusOr<std::unique_ptr<MetricsServer>> server = MetricsServer::Start(
      options_.listen, {metrics_document, health, findings_document, health_note, state_document},
      options_.api_socket);
  if (!server.ok()) return server.status();
  server_ = std::move(server).value();
  // The local socket is a convenience for tools on the node: without it the daemon still
  // monitors and serves the TCP port (docs/reliability.md).
  if (!server_->unix_socket_status().ok())
    spdlog::error("{}; serving the TCP port only", server_->unix_socket_status().message());
  return Status::Ok();
}

void Daemon::Run() {
  loop_.Run();
  service_->Stopping();
  monitor_->Stop();
  stopped_ = true;
}

int RunDaemon(const HostEnv& env, const RunOptions& options) {
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
  // One descriptor kept open per polled sysfs attribute (os/attribute_reader.h): the counters
  // and port attributes first, the rest for the sysfs GID slots.
  StatusOr<uint64_t> open_file_limit = RaiseOpenFileLimit();
  const size_t descriptor_budget =
      KeptDescriptorBudget(open_file_limit.ok() ? *open_file_limit : 1024);
  spdlog::info("open-file limit {}: up to {} sysfs descriptors kept open",
               open_file_limit.ok() ? *open_file_limit : 0, descriptor_budget);
  StatusOr<std::unique_ptr<Daemon>> daemon =
      Daemon::Start(env, options, Daemon::Resources{.kept_descriptors = descriptor_budget});
  if (!daemon.ok()) {
    spdlog::error("{}", daemon.status().message());
    return 1;
  }
  EventLoop& loop = (*daemon)->loop();
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
    if (ActionFor(signo) != SignalAction::kStop) {
      spdlog::warn("received {} (sent by pid {}): ignored (only SIGTERM and SIGINT stop rocewatch)",
                   SignalName(signo), signals.last_sender());
      return;
    }
    spdlog::info("received {}, stopping", SignalName(signo));
    loop.Stop();
  });
  (*daemon)->Run();
  spdlog::info("stopped");
  return 0;
}

}  // namespace rocewatch
