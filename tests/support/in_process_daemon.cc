#include "support/in_process_daemon.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <utility>

namespace rocewatch {

InProcessDaemon::InProcessDaemon(const FileSystem& fs, const std::string& sysfs_root) : host_(fs) {
  host_.env().clock = &clock_;
  options_.common.paths.sysfs_root = sysfs_root;
  options_.common.paths.procfs_root = procfs_dir_.path();
  options_.common.gid_source = GidSourceChoice::kSysfs;
  options_.state_file.clear();
  options_.listen = ListenAddress{"127.0.0.1", 0};
  options_.api_socket.clear();                // tests run side by side: none binds the default path
  options_.interval = std::chrono::hours(1);  // polls come from Poll()
  // Read everything on every snapshot: GID tables, port attributes, listings.
  options_.gid_backstop = Duration::zero();
  options_.slow_counter_interval = Duration::zero();
  options_.listing_backstop = Duration::zero();
}

InProcessDaemon::~InProcessDaemon() {
  if (loop_thread_.joinable()) {
    OnLoop([this] { daemon_->loop().Stop(); });
    loop_thread_.join();
  }
  tasks_.reset();  // before the daemon's loop goes
}

Status InProcessDaemon::Start() {
  StatusOr<std::unique_ptr<Daemon>> daemon =
      Daemon::Start(host_.env(), options_,
                    Daemon::Resources{.kept_descriptors = 0, .read_deadline = read_deadline_});
  if (!daemon.ok()) return daemon.status();
  daemon_ = std::move(daemon).value();
  StatusOr<std::unique_ptr<LoopRequests>> tasks = LoopRequests::Create(
      daemon_->loop(),
      [this] {
        std::function<void()> task;
        {
          std::lock_guard<std::mutex> lock(task_mutex_);
          task = std::exchange(task_, nullptr);
        }
        if (task) task();
      },
      "the test's tasks");
  if (!tasks.ok()) return tasks.status();
  tasks_ = std::move(tasks).value();
  loop_thread_ = std::thread([this] { daemon_->Run(); });
  return Status::Ok();
}

void InProcessDaemon::OnLoop(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(task_mutex_);
    task_ = std::move(task);
  }
  // A poll is bounded by the file system's reads; a loop that does not answer in a minute is a
  // hung test, which fails here instead of waiting for the test's timeout.
  if (!tasks_->Ask(std::chrono::minutes(1))) {
    std::fputs("InProcessDaemon: the loop did not answer within a minute\n", stderr);
    std::abort();
  }
}

Status InProcessDaemon::Poll() {
  Status polled;
  OnLoop([this, &polled] { polled = daemon_->monitor().PollNow("test"); });
  return polled;
}

std::string StableExposition(const std::string& exposition) {
  // Left out: times and durations; the traffic detector's series (rocewatch_traffic_* and
  // rocewatch_rail_down_under_job: they depend on poll timing, and the detector keeps a port
  // that vanished, as its traffic history); and the GID drift
  // counters, which by design outlive a device that vanishes (a driver reload must not reset a
  // counter), so they are not part of "the device is absent or complete".
  static const std::regex volatile_series(
      "^(rocewatch_poll_duration_seconds|rocewatch_last_poll_timestamp_seconds|"
      "rocewatch_source_errors_total|rocewatch_traffic_|rocewatch_gid_drift_events_total|"
      "rocewatch_gid_last_drift_timestamp_seconds|rocewatch_component_|"
      "rocewatch_rail_down_under_job)");
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
