#pragma once
// The daemon's line to its service manager: sd_notify(3) messages (READY=1, WATCHDOG=1,
// STOPPING=1, STATUS=...) and the watchdog timeout the manager expects. Abstract so that tests
// can record the notifications (tests/support/fake_service_notifier.h).

#include <optional>
#include <string_view>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

class ServiceNotifier {
 public:
  virtual ~ServiceNotifier() = default;

  // Sends one notification: newline-separated VARIABLE=value assignments, e.g. "READY=1".
  // Without a service manager listening ($NOTIFY_SOCKET unset) nothing is sent and the result is
  // OK. Errors: the datagram could not be sent (IoError with the errno).
  virtual Status Notify(std::string_view state) = 0;

  // The watchdog timeout the manager set for this process ($WATCHDOG_USEC, if $WATCHDOG_PID is
  // unset or names this process); nullopt when it expects no watchdog pings.
  virtual std::optional<Duration> WatchdogTimeout() const = 0;
};

// systemd's protocol through libsystemd (sd_notify, sd_watchdog_enabled). Reads the environment
// at each call and never unsets it.
class SystemdNotifier final : public ServiceNotifier {
 public:
  Status Notify(std::string_view state) override;
  std::optional<Duration> WatchdogTimeout() const override;
};

}  // namespace rocewatch
