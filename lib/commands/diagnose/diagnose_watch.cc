#include "diagnose/diagnose_watch.h"

#include <cstdio>
#include <ctime>

#include "core/terminal_text.h"
#include "daemon/components.h"
#include "daemon/monitor.h"

namespace rocewatch {
namespace {

// "12:34:56.789Z", for the live lines.
std::string FormatTime(double unix_seconds) {
  std::time_t whole = static_cast<std::time_t>(unix_seconds);
  std::tm tm;
  gmtime_r(&whole, &tm);
  char text[40];
  std::strftime(text, sizeof(text), "%H:%M:%S", &tm);
  char millis[8];
  std::snprintf(millis, sizeof(millis), ".%03d",
                static_cast<int>((unix_seconds - static_cast<double>(whole)) * 1000));
  return std::string(text) + millis + "Z";
}

}  // namespace

Status WatchNode(const HostEnv& env, const DiagnoseOptions& options, SnapshotSource& source,
                 VerbsDeviceSet* verbs_devices, const DaemonView* daemon, DiagnoseReport& report,
                 std::ostream& err) {
  const FileSystem& fs = *env.files;
  const Clock& clock = *env.clock;
  EventLoop loop(clock);
  RunOptions run_options;
  run_options.common = options.common;
  run_options.interval = options.interval;
  run_options.state_file.clear();  // diagnose never touches the daemon's state
  Monitor monitor(loop, source, MonitorOptions{options.interval, run_options.settle});
  run_options.consumers.kubelet_socket = options.consumers.kubelet_socket;
  if (!options.optics) run_options.ethtool.optics_interval = Duration::zero();
  ComponentSet components = BuildComponents({run_options, env, fs, fs, verbs_devices});
  TrafficComponent* traffic = components.traffic;
  const EthtoolComponent* ethtool = components.ethtool;
  const ConsumerComponent* consumers = components.consumers;
  for (auto& component : components.all) monitor.AddComponent(std::move(component));
  // The first rates and states agree with the daemon's (docs/diagnose.md, "The daemon").
  // A recording's counters are of another time: only a live daemon's seed the watch.
  if (traffic && daemon && daemon->usable() && daemon->state && !daemon->recorded_at_unix)
    traffic->Resume(DaemonTrafficView(*daemon->state, clock.Now(), clock.UnixSeconds()));
  // Per-rail rates and traffic states at every periodic poll.
  monitor.SetSnapshotObserver([&](const NodeSnapshot&, SnapshotTrigger trigger) {
    if (options.json || !traffic || trigger != SnapshotTrigger::kPeriodic) return;
    std::string rates = traffic->RatesLine();
    if (!rates.empty()) err << FormatTime(clock.UnixSeconds()) << "  traffic  " << rates << "\n";
  });
  monitor.SetEventObserver([&](double when, std::string_view what) {
    std::string line = FormatTime(when) + "  " + std::string(what);
    report.watch_log.push_back(line);
    err << TerminalSafe(line) << "\n" << std::flush;  // live, on stderr in both modes
  });
  if (!options.json) {
    err << "watching for " << std::chrono::duration<double>(*options.watch).count()
        << " s (link, address and GID events are printed as they happen)...\n";
  }
  Status started = monitor.Start();
  if (!started.ok()) return Status::Unavailable(started.ToString());
  loop.ScheduleAfter(*options.watch, [&loop] { loop.Stop(); });
  loop.Run();
  report.snapshot = monitor.latest_snapshot();
  report.findings = monitor.CurrentFindings();
  if (ethtool) report.link_quality = ethtool->ReportEntries();
  for (LinkQualityEntry& entry : report.link_quality)
    if (entry.quality && entry.quality->window_seconds > 0)
      entry.figures = LinkFiguresSource::kWatch;
  if (consumers) report.consumers = consumers->latest();
  monitor.Stop();
  return Status::Ok();
}

}  // namespace rocewatch
