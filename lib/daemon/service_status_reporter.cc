#include "daemon/service_status_reporter.h"

#include <spdlog/spdlog.h>

#include <string>

#include "core/duration.h"

namespace rocewatch {

ServiceStatusReporter::ServiceStatusReporter(EventLoop& loop, ServiceNotifier& notifier,
                                             HealthCheck healthy)
    : loop_(loop), notifier_(notifier), healthy_(std::move(healthy)) {}

ServiceStatusReporter::~ServiceStatusReporter() { loop_.Cancel(timer_); }

void ServiceStatusReporter::Start() {
  std::optional<Duration> timeout = notifier_.WatchdogTimeout();
  if (!timeout) return;
  ping_interval_ = *timeout / 2;
  spdlog::info("systemd watchdog: timeout {}, pinging every {}", FormatDuration(*timeout),
               FormatDuration(ping_interval_));
  timer_ = loop_.ScheduleAfter(ping_interval_, [this] { Ping(); });
}

void ServiceStatusReporter::Ready(std::string_view status) {
  Send("READY=1\nSTATUS=" + std::string(status));
}

void ServiceStatusReporter::Stopping() {
  loop_.Cancel(timer_);
  ping_interval_ = Duration::zero();
  Send("STOPPING=1");
}

void ServiceStatusReporter::Ping() {
  if (healthy_()) {
    Send("WATCHDOG=1");
    ++pings_sent_;
  } else {
    // The manager restarts the service once a whole timeout passes without a ping.
    spdlog::warn("unhealthy (no recent poll): withholding the systemd watchdog ping");
    ++pings_withheld_;
  }
  timer_ = loop_.ScheduleAfter(ping_interval_, [this] { Ping(); });
}

void ServiceStatusReporter::Send(std::string_view state) {
  Status sent = notifier_.Notify(state);
  if (sent.ok() || send_failure_logged_) return;
  send_failure_logged_ = true;  // once: a broken socket would otherwise log every ping
  spdlog::warn("cannot notify the service manager: {}", sent.ToString());
}

}  // namespace rocewatch
