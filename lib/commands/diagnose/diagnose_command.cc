#include "diagnose/diagnose_command.h"

#include <algorithm>
#include <cstdlib>

#include "core/event_loop.h"
#include "core/terminal_text.h"
#include "daemon/defaults.h"
#include "daemon/gid_source_factory.h"
#include "daemon/inventory_snapshot_source.h"
#include "diagnose/configuration_checks.h"
#include "diagnose/configuration_facts.h"
#include "diagnose/daemon_recording.h"
#include "diagnose/daemon_view.h"
#include "diagnose/diagnose_report.h"
#include "diagnose/diagnose_watch.h"
#include "diagnose/gid_table_checks.h"
#include "diagnose/npd_verdict.h"
#include "diagnose/persisted_state_checks.h"
#include "diagnose/rail_down_checks.h"
#include "export/daemon_findings.h"
#include "inventory/read_failure_checks.h"
#include "job_awareness/consumer_merge.h"
#include "job_awareness/consumer_read_checks.h"
#include "link_quality/link_quality_snapshot.h"
#include "model/check_policy.h"
#include "model/rnic_netdevs.h"
#include "netlink/netlink_netdev_reader.h"
#include "os/boot_id.h"
#include "os/netdev_recording.h"

namespace rocewatch {
namespace {

// Merges the daemon's findings, live or recorded in a bundle (docs/diagnose.md, "The daemon").
// Whatever happened is one info finding: merged, or why the daemon's answer is not used.
// `optics_off`: this run read no module because the daemon reads none (DaemonOptics::off).
void MergeFromDaemon(const DaemonView& view, const std::string& boot_id, bool optics_off,
                     DiagnoseReport& report) {
  const std::string& where = view.where;
  if (view.recorded_at_unix) report.daemon_recorded_at_unix = view.recorded_at_unix;
  if (!view.problem.ok()) {
    report.findings.push_back(
        {SeverityOf("daemon_unreachable"), "daemon_unreachable", where,
         (view.recorded ? "the bundle holds no usable answer of the rocewatch daemon at "
                        : "no rocewatch daemon answered at ") +
             where + " (" + view.problem.message() +
             "): this report holds this run's one-shot checks only, without the drift, flap and "
             "address history the daemon keeps",
         view.recorded ? "Collect the bundle again with the daemon running (`rocewatch collect "
                         "--daemon URL`); --daemon none skips the recording."
                       : "Start the daemon (`rocewatch run`), or point --daemon at where it "
                         "listens; --daemon none skips this."});
    return;
  }
  const DaemonFindings* daemon = &view.findings;
  if (view.other_host) {
    report.findings.push_back(
        {SeverityOf("daemon_other_host"), "daemon_other_host", where,
         "the rocewatch daemon at " + where + " watches another host (boot id " + daemon->boot_id +
             ", this report's host " + boot_id + "): its findings are not merged",
         "Point --daemon at the daemon of the host under --host-root, or use --daemon none."});
    return;
  }
  MergeDaemonFindings(*daemon, report.findings);
  for (const DaemonFindings::Event& e : daemon->events)
    if (e.severity >= Severity::kWarning) report.daemon_events.push_back(e.time + "  " + e.message);
  const std::string what =
      view.recorded_at_unix
          ? "the findings (" + std::to_string(daemon->findings.size()) +
                ") and recent warning events recorded at collection time (" +
                FormatUtc(*view.recorded_at_unix, false) + ") of the rocewatch daemon at " + where
          : "the live findings (" + std::to_string(daemon->findings.size()) +
                ") and recent warning events of the rocewatch daemon at " + where;
  report.findings.push_back(
      {SeverityOf("daemon"), "daemon", where,
       "merged " + what +
           (view.state ? std::string()
                       : "; its " + view.state_source + " did not answer (" + view.state_problem +
                             "): link quality and --watch rates are this run's own") +
           (optics_off
                ? "; it reads no transceiver module (--optics-interval 0 or --ethtool-interval 0), "
                  "so neither did this run"
                : ""),
       "None needed."});
}

// One warning naming the paths under the host root that were not read because a link in them
// leads out of it (os/beneath_path.h): in an untrusted bundle that is an attempt to make this
// report print a file of the machine reading it.
void ReportRefusedReads(const RefusedReads& refused, const HostPaths& paths,
                        std::vector<Finding>& findings) {
  const std::vector<std::string> kept = refused.Paths();
  if (kept.empty()) return;
  std::string list;
  for (const std::string& path : kept) list += (list.empty() ? "" : ", ") + path;
  if (refused.more()) list += ", ...";
  findings.push_back(
      {SeverityOf("host_root_link_refused"), "host_root_link_refused", paths.host_root,
       std::to_string(kept.size()) + (refused.more() ? "+" : "") +
           " path(s) under the host root were refused, not read: a symbolic link in them leads "
           "out of the root (" +
           list + "); what they hold is reported as unknown",
       "Read bundles only from sources you trust; a link out of a bundle is never followed. On "
       "a live host root, replace the absolute link with a relative one inside the root."});
}

// Who uses each rail, once: every process's descriptors, and the kubelet (docs/diagnose.md).
void ScanConsumersOnce(const HostEnv& env, const DiagnoseOptions& options, DiagnoseReport& report) {
  const FileSystem& fs = *env.files;
  const HostPaths& paths = options.common.paths;
  std::vector<std::string> devices;
  for (const Device& device : report.snapshot.devices) devices.push_back(device.name);
  ProcfsConsumerScan scan = ProcfsConsumerScanner(fs, paths).Scan(env.clock->Now(), true);
  std::unique_ptr<PodResourcesSource> kubelet = env.kubelet(fs, paths, options.consumers);
  std::optional<KubeletAnswer> answer;
  if (kubelet) answer = KubeletAnswerOf(*kubelet, kubelet->ListNow(), fs, paths, devices);
  report.consumers = MergeConsumers(
      devices, &scan, answer ? &*answer : nullptr,
      kubelet ? std::vector<std::string>{}
              : std::vector<std::string>{"kubelet: not used (--kubelet-socket none)"});
  std::vector<Finding> failed = CheckConsumerSourceReads(&scan, answer ? &*answer : nullptr);
  report.findings.insert(report.findings.end(), failed.begin(), failed.end());
}

// Link quality, once: two samples --link-window apart, except for netdevs the daemon rates; the
// modules the live daemon reads are not read again (docs/diagnose.md).
void LookAtLinksOnce(const HostEnv& env, const DiagnoseOptions& options, const DaemonView* daemon,
                     DiagnoseReport& report) {
  const FileSystem& fs = *env.files;
  const HostPaths& paths = options.common.paths;
  const Clock& clock = *env.clock;
  LinkQualityLookOptions look_options;
  look_options.optics = options.optics;
  look_options.window = options.link_window;
  if (daemon && daemon->usable() && daemon->state)
    look_options.figures_elsewhere = NetdevsWithDaemonLinkFigures(*daemon->state);
  if (daemon) {
    DaemonOptics optics = DaemonOpticsOf(*daemon);
    if (optics.off) look_options.optics = false;
    look_options.modules_by_daemon = std::move(optics.read);
  }
  auto wait = [&clock](Duration d) {
    EventLoop loop(clock);
    loop.ScheduleAfter(d, [&loop] { loop.Stop(); });
    loop.Run();
  };
  EthtoolSources ethtool = env.ethtool();
  EthtoolPoller poller(fs, paths.host_root, paths.sysfs_root, ethtool.statistics.get(),
                       ethtool.netlink.get());
  LinkQualityLook look = LookAtLinkQuality(
      poller, RnicNetdevs(report.snapshot, RnicNetdevScope::kAll), clock, wait, look_options);
  report.link_quality = std::move(look.entries);
  report.findings.insert(report.findings.end(), look.findings.begin(), look.findings.end());
}

// Configuration checks (docs/diagnose.md): who configures the RNIC netdevs, NCCL settings of
// running jobs, GID layout, counters. Policy rules come from this network namespace, like the
// addresses.
void CheckConfiguration(const FileSystem& fs, const HostPaths& paths,
                        const NodeSnapshot* before_watch,
                        const std::map<std::string, NetdevState>& known_states,
                        const NetlinkNetdevReader& live_netdevs, DiagnoseReport& report) {
  ConfigurationFacts facts =
      ReadConfigurationFacts(fs, paths, RnicNetdevs(report.snapshot, RnicNetdevScope::kAll));
  for (NetdevReport& netdev : report.netdevs)
    if (const NetdevConfig* config = facts.host.Find(netdev.observation.state.name))
      netdev.managed_by = NetdevManagerLabel(config->managed_by);
  ConfigurationCheckInput input;
  input.snapshot = &report.snapshot;
  input.earlier = before_watch;
  input.netdevs = &known_states;
  input.host = &facts.host;
  input.nccl = &facts.nccl;
  input.policy_rules = live_netdevs.rules() ? &*live_netdevs.rules() : nullptr;
  std::vector<Finding> configuration = RunConfigurationChecks(input);
  report.findings.insert(report.findings.end(), configuration.begin(), configuration.end());
}

// What the daemon last knew on this boot: its state file, read only (docs/diagnose.md).
void CheckPersistedState(const FileSystem& fs, const HostPaths& paths, const std::string& boot_id,
                         const std::map<std::string, NetdevState>& known_states,
                         DiagnoseReport& report) {
  const std::string state_path = JoinPath(paths.host_root, defaults::kStateFile);
  auto text = fs.ReadFile(state_path, GidStateStore::kMaxStateBytes);
  if (!text.ok()) return;
  StatusOr<PersistedGidState> persisted = ParseGidState(*text);
  if (!persisted.ok()) return;
  std::vector<Finding> missing = CheckAgainstPersistedState(
      report.snapshot, known_states, *persisted, boot_id, defaults::kStateFile);
  report.findings.insert(report.findings.end(), missing.begin(), missing.end());
}

// The report step both paths share: the netdevs, link quality (one-shot), the checks of ports,
// GID tables, configuration and the persisted state, each rail's far end, and the daemon's
// findings. `before_watch`: the counters at the start of --watch (null without it).
void CompleteReport(const HostEnv& env, const DiagnoseOptions& options, const DaemonView* daemon,
                    const std::string& boot_id, const NodeSnapshot* before_watch,
                    DiagnoseReport& report) {
  const FileSystem& fs = *env.files;
  const HostPaths& paths = options.common.paths;
  if (!report.consumers) ScanConsumersOnce(env, options, report);
  // Links, addresses and policy rules through the daemon's rtnetlink stack, in one dump; a
  // bundle's recorded addresses stand in for this namespace's (docs/bundle.md).
  std::unique_ptr<RtnetlinkSource> rtnetlink = env.rtnetlink(kDefaultNetlinkReceiveBufferBytes);
  NetlinkNetdevReader live_netdevs(*rtnetlink, fs, paths);
  RecordedNetdevReader netdev_reader(fs, paths.host_root, live_netdevs);
  std::map<std::string, NetdevState> known_states;
  for (auto& [name, observation] :
       netdev_reader.Read(RnicNetdevs(report.snapshot, RnicNetdevScope::kAll))) {
    if (observation.in_namespace) known_states[name] = observation.state;
    report.netdevs.push_back({observation, "unknown"});
  }
  if (!options.watch) LookAtLinksOnce(env, options, daemon, report);
  if (daemon) TakeDaemonLinkFigures(*daemon, report.link_quality);
  std::vector<Finding> checks = CheckPortsAndGidTables(report.snapshot, known_states);
  report.findings.insert(report.findings.end(), checks.begin(), checks.end());
  if (report.consumers) {
    // With --watch the traffic detector may have found the same already.
    for (Finding& f : CheckRailsDownUnderJob(report.snapshot, known_states, *report.consumers)) {
      const bool known = std::any_of(
          report.findings.begin(), report.findings.end(),
          [&f](const Finding& g) { return g.check == f.check && g.subject == f.subject; });
      if (!known) report.findings.push_back(std::move(f));
    }
  }
  // What failed reads leave unknown (with --watch the inventory component reported it).
  if (!options.watch) {
    std::vector<Finding> unknown =
        CheckReadFailures(report.snapshot, report.snapshot.read_failures);
    report.findings.insert(report.findings.end(), unknown.begin(), unknown.end());
  }
  CheckConfiguration(fs, paths, before_watch, known_states, live_netdevs, report);
  CheckPersistedState(fs, paths, boot_id, known_states, report);
  // Each rail's far end: the daemon's LLDP neighbor, else a bundle's recording.
  RailNeighborLook neighbors = LookUpRailNeighbors(
      report.snapshot, daemon && daemon->usable() ? &daemon->metrics : nullptr, fs, paths);
  report.neighbors = std::move(neighbors.by_netdev);
  report.findings.insert(report.findings.end(), neighbors.findings.begin(),
                         neighbors.findings.end());
  if (daemon) {
    const bool optics_off = !options.watch && options.optics && DaemonOpticsOf(*daemon).off;
    MergeFromDaemon(*daemon, boot_id, optics_off, report);
  }
  if (env.refused_reads) ReportRefusedReads(*env.refused_reads, paths, report.findings);
}

}  // namespace

StatusOr<DiagnoseReport> BuildDiagnoseReport(const HostEnv& env, const DiagnoseOptions& options,
                                             std::ostream& err) {
  const HostPaths& paths = options.common.paths;
  // Whole-file reads throughout: a one-shot command keeps nothing open.
  const FileSystem& fs = *env.files;
  if (!fs.IsDirectory(paths.sysfs_root)) {
    return Status::InvalidArgument("cannot read sysfs at " + paths.sysfs_root +
                                   ": not a directory (check --host-root / --sysfs-root)");
  }
  StatusOr<OpenedGidSource> gids = OpenGidSource(options.common.gid_source, env.verbs(), fs, paths);
  if (!gids.ok()) return gids.status();
  // One-shot reads: nothing is kept open, everything is read on every snapshot.
  SysfsPoller poller(fs, paths.sysfs_root, &gids->source(), /*max_open=*/0);
  InventorySnapshotSource source(poller, gids->source(), *env.clock, GidReadPolicy{},
                                 kReadEverythingEverySnapshot);

  DiagnoseReport report;
  report.gid_source = gids->source().name();
  // The daemon is asked first: its windowed figures spare this run a wait, and --watch starts
  // from its baselines. A bundle's recorded answer stands in for the live daemon unless --daemon
  // named one.
  const std::string boot_id = ReadBootId(fs, paths.procfs_root);
  std::optional<DaemonView> daemon;
  if (options.daemon && !options.daemon_given)
    daemon = ReadDaemonRecording(fs, paths.host_root, boot_id);
  if (options.daemon && !daemon) daemon = AskDaemon(options, boot_id, env.fetch);
  const DaemonView* daemon_view = daemon ? &*daemon : nullptr;
  std::optional<NodeSnapshot> before_watch;  // counters at the start of --watch
  if (options.watch) {
    if (StatusOr<NodeSnapshot> first = source.Take(); first.ok()) before_watch = std::move(*first);
    Status watched =
        WatchNode(env, options, source, gids->verbs_devices(), daemon_view, report, err);
    if (!watched.ok()) return watched;
  } else {
    StatusOr<NodeSnapshot> snapshot = source.Take();
    if (!snapshot.ok())
      return Status::Unavailable("cannot read the RDMA devices: " + snapshot.status().ToString());
    report.snapshot = std::move(snapshot).value();
  }
  CompleteReport(env, options, daemon_view, boot_id, before_watch ? &*before_watch : nullptr,
                 report);
  return report;
}

int RunDiagnose(const HostEnv& env, const DiagnoseOptions& options, std::ostream& out,
                std::ostream& err, bool out_is_terminal) {
  StatusOr<DiagnoseReport> built = BuildDiagnoseReport(env, options, err);
  if (!built.ok()) {
    err << "rocewatch diagnose: " << TerminalSafe(built.status().message()) << "\n";
    return 3;
  }
  const DiagnoseReport& report = *built;
  if (options.npd) {
    NpdVerdict verdict = NpdVerdictFor(report.findings);
    out << verdict.message << "\n";
    return verdict.exit_status;
  }
  if (options.json) {
    // Values read from the host may be any bytes: invalid UTF-8 becomes U+FFFD instead of an
    // exception (tests/integration/hostile_sysfs_content_test.cc).
    out << ReportToJson(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
  } else {
    TextStyle style;
    style.color = out_is_terminal && std::getenv("NO_COLOR") == nullptr;
    out << RenderReportText(report, style);
  }
  return ReportExitStatus(report);
}

}  // namespace rocewatch
