#pragma once
// Time, injected. Nothing in lib/ reads a clock directly or sleeps: it takes a Clock, so tests
// advance a FakeClock (tests/support/fake_clock.h) instead of sleeping.

#include <chrono>

namespace rocewatch {

// Monotonic time: orders observations and measures intervals. Never goes back.
using MonoTime = std::chrono::steady_clock::time_point;
using Duration = std::chrono::nanoseconds;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual MonoTime Now() const = 0;
  // Wall-clock time as Unix seconds, for timestamps that leave the process (metrics, logs, state).
  virtual double UnixSeconds() const = 0;
};

// The real clocks of the machine.
class SystemClock final : public Clock {
 public:
  MonoTime Now() const override { return std::chrono::steady_clock::now(); }
  double UnixSeconds() const override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

inline double ToSeconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace rocewatch
