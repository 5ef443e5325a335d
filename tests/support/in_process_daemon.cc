#include "support/in_process_daemon.h"

#include <regex>
#include <sstream>

#include "app/components.h"

namespace rocewatch {

InProcessDaemon::InProcessDaemon(const FileSystem& fs, const std::string& sysfs_root)
    : gids_(fs, sysfs_root),
      poller_(fs, sysfs_root, &gids_, /*max_open=*/0),
      source_(poller_, gids_, clock_, GidReadPolicy{Duration::zero(), Duration::zero()},
              kReadEverythingEverySnapshot),
      fs_(fs),
      monitor_(loop_, source_, MonitorOptions{}) {
  options_.state_file.clear();
  options_.listen = ListenAddress{"127.0.0.1", 0};
}

InProcessDaemon::~InProcessDaemon() {
  server_.reset();  // no scrape reaches the collectable after this
  monitor_.Stop();
}

Status InProcessDaemon::Start() {
  for (auto& component : BuildComponents({options_, fs_}))
    monitor_.AddComponent(std::move(component));
  monitor_.SetPublishSink([metrics = metrics_](std::vector<prometheus::MetricFamily> families) {
    metrics->Publish(std::move(families));
  });
  Status started = monitor_.Start();
  if (!started.ok()) return started;
  StatusOr<std::unique_ptr<MetricsServer>> server =
      MetricsServer::Start(options_.listen, metrics_, [] { return true; });
  if (!server.ok()) return server.status();
  server_ = std::move(server).value();
  return Status::Ok();
}

std::string StableExposition(const std::string& exposition) {
  // Left out: times and durations; traffic series (they depend on poll timing); and the GID drift
  // counters, which by design outlive a device that vanishes (a driver reload must not reset a
  // counter), so they are not part of "the device is absent or complete".
  static const std::regex volatile_series(
      "^(exposer_|rocewatch_poll_duration_seconds|rocewatch_last_poll_timestamp_seconds|"
      "rocewatch_source_errors_total|rocewatch_traffic_|rocewatch_gid_drift_events_total|"
      "rocewatch_gid_last_drift_timestamp_seconds|rocewatch_component_|"
      "# (HELP|TYPE) exposer_)");
  std::istringstream lines(exposition);
  std::ostringstream out;
  std::string line;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, volatile_series)) continue;
    out << line << "\n";
  }
  return out.str();
}

}  // namespace rocewatch
