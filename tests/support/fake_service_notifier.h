#pragma once
// A service manager that records every notification and offers a chosen watchdog timeout.

#include <optional>
#include <string>
#include <vector>

#include "os/service_notifier.h"

namespace rocewatch {

class FakeServiceNotifier final : public ServiceNotifier {
 public:
  Status Notify(std::string_view state) override {
    notifications.emplace_back(state);
    return fail_with;
  }
  std::optional<Duration> WatchdogTimeout() const override { return watchdog_timeout; }

  // Every state passed to Notify, in order (failed sends included).
  std::vector<std::string> notifications;
  std::optional<Duration> watchdog_timeout;
  Status fail_with = Status::Ok();
};

}  // namespace rocewatch
