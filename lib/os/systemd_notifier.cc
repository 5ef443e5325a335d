#include <systemd/sd-daemon.h>

#include <string>

#include "os/service_notifier.h"

namespace rocewatch {

Status SystemdNotifier::Notify(std::string_view state) {
  int sent = sd_notify(/*unset_environment=*/0, std::string(state).c_str());
  if (sent < 0) return Status::FromErrno(-sent, "sd_notify");
  return Status::Ok();
}

std::optional<Duration> SystemdNotifier::WatchdogTimeout() const {
  uint64_t usec = 0;
  // > 0: enabled for this process; 0: not expected (or for another pid); < 0: a malformed
  // $WATCHDOG_USEC, which a service manager never sets: treated as no watchdog.
  if (sd_watchdog_enabled(/*unset_environment=*/0, &usec) <= 0 || usec == 0) return std::nullopt;
  return std::chrono::microseconds(usec);
}

}  // namespace rocewatch
