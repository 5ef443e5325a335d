#pragma once
// The daemon's line to its service manager: sd_notify(3) messages (READY=1, WATCHDOG=1,
// STOPPING=1, STATUS=...) and the watchdog timeout the manager expects. Abstract so that tests
// can record the notifications (tests/support/fake_service_notifier.h).

#include <memory>
#include <mutex>
#include <optional>
#include <string>
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
//
// libsystemd is loaded with dlopen() (never closed) the first time a call finds the variable that
// a service manager sets ($NOTIFY_SOCKET for Notify, $WATCHDOG_USEC for WatchdogTimeout), and not
// at all otherwise: in a pod no manager listens, and libsystemd with the libraries it needs
// (libgcrypt, libzstd, liblzma, liblz4, libcap) is 1 MiB of resident memory. If it cannot be
// loaded, Notify fails with the loader's reason (Unavailable), and WatchdogTimeout is nullopt: the
// first Notify (READY=1) then reports why. Thread-safe.
class SystemdNotifier final : public ServiceNotifier {
 public:
  static constexpr const char* kLibrary = "libsystemd.so.0";

  // `library`: what dlopen() loads (another name only in tests).
  explicit SystemdNotifier(std::string library = kLibrary);
  ~SystemdNotifier() override;

  Status Notify(std::string_view state) override;
  std::optional<Duration> WatchdogTimeout() const override;

 private:
  struct Functions;
  const Functions* Load() const;  // nullptr when it cannot be loaded (load_error_ says why)

  const std::string library_;
  mutable std::once_flag loaded_;
  mutable std::unique_ptr<Functions> functions_;
  mutable std::string load_error_;
};

}  // namespace rocewatch
