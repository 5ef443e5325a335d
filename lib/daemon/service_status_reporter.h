#pragma once
// Keeps the service manager (systemd, Type=notify) informed of the daemon's state:
//   - READY=1 once the daemon serves real data (after the first snapshot);
//   - WATCHDOG=1 from the event loop every half of the watchdog timeout, but only while the
//     health check passes: a stalled loop, or a loop whose polls stopped, sends no more pings and
//     systemd restarts the service (WatchdogSec=);
//   - STOPPING=1 on the way out.
// Without a service manager every notification is a no-op (ServiceNotifier).
//
// Threading: the event-loop thread only. REQUIRES: loop and notifier outlive this object.

#include <functional>
#include <string_view>

#include "core/event_loop.h"
#include "os/service_notifier.h"

namespace rocewatch {

class ServiceStatusReporter {
 public:
  using HealthCheck = std::function<bool()>;

  ServiceStatusReporter(EventLoop& loop, ServiceNotifier& notifier, HealthCheck healthy);
  ~ServiceStatusReporter();
  ServiceStatusReporter(const ServiceStatusReporter&) = delete;
  ServiceStatusReporter& operator=(const ServiceStatusReporter&) = delete;

  // Starts the watchdog pings if the manager expects them; the first is due half a timeout later.
  void Start();
  // READY=1 with a STATUS= line for `systemctl status`.
  void Ready(std::string_view status);
  // STOPPING=1; no pings after it.
  void Stopping();

  // The interval between pings; zero when no watchdog is expected (or before Start).
  Duration ping_interval() const { return ping_interval_; }
  uint64_t pings_sent() const { return pings_sent_; }
  uint64_t pings_withheld() const { return pings_withheld_; }

 private:
  void Ping();
  void Send(std::string_view state);

  EventLoop& loop_;
  ServiceNotifier& notifier_;
  HealthCheck healthy_;
  Duration ping_interval_ = Duration::zero();
  EventLoop::TimerId timer_ = 0;
  uint64_t pings_sent_ = 0;
  uint64_t pings_withheld_ = 0;
  bool send_failure_logged_ = false;
};

}  // namespace rocewatch
