#include <dlfcn.h>
#include <stdlib.h>
#include <systemd/sd-daemon.h>

#include <string>
#include <utility>

#include "os/service_notifier.h"

namespace rocewatch {

// The two functions used, typed from libsystemd's own header.
struct SystemdNotifier::Functions {
  decltype(&::sd_notify) notify = nullptr;
  decltype(&::sd_watchdog_enabled) watchdog_enabled = nullptr;
};

SystemdNotifier::SystemdNotifier(std::string library) : library_(std::move(library)) {}

SystemdNotifier::~SystemdNotifier() = default;

const SystemdNotifier::Functions* SystemdNotifier::Load() const {
  std::call_once(loaded_, [this] {
    void* handle = ::dlopen(library_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* reason = ::dlerror();
      load_error_ =
          "cannot load " + library_ + ": " + (reason != nullptr ? reason : "dlopen failed");
      return;
    }
    auto functions = std::make_unique<Functions>();
    functions->notify = reinterpret_cast<decltype(&::sd_notify)>(::dlsym(handle, "sd_notify"));
    functions->watchdog_enabled =
        reinterpret_cast<decltype(&::sd_watchdog_enabled)>(::dlsym(handle, "sd_watchdog_enabled"));
    if (functions->notify == nullptr || functions->watchdog_enabled == nullptr) {
      load_error_ = library_ + " lacks sd_notify or sd_watchdog_enabled";
      return;
    }
    functions_ = std::move(functions);
  });
  return functions_.get();
}

Status SystemdNotifier::Notify(std::string_view state) {
  if (::getenv("NOTIFY_SOCKET") == nullptr) return Status::Ok();  // as sd_notify() does
  const Functions* systemd = Load();
  if (systemd == nullptr) return Status::Unavailable(load_error_);
  int sent = systemd->notify(/*unset_environment=*/0, std::string(state).c_str());
  if (sent < 0) return Status::FromErrno(-sent, "sd_notify");
  return Status::Ok();
}

std::optional<Duration> SystemdNotifier::WatchdogTimeout() const {
  if (::getenv("WATCHDOG_USEC") == nullptr) return std::nullopt;  // as sd_watchdog_enabled() does
  const Functions* systemd = Load();
  if (systemd == nullptr) return std::nullopt;
  uint64_t usec = 0;
  // > 0: enabled for this process; 0: not expected (or for another pid); < 0: a malformed
  // $WATCHDOG_USEC, which a service manager never sets: treated as no watchdog.
  if (systemd->watchdog_enabled(/*unset_environment=*/0, &usec) <= 0 || usec == 0)
    return std::nullopt;
  return std::chrono::microseconds(usec);
}

}  // namespace rocewatch
