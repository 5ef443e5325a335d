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

// A time of the monotonic clock as Unix seconds, and back, through the clock's current reading of
// both (for times that outlive the process: the state file). A Unix time in the future maps to now.
inline double UnixSecondsAt(const Clock& clock, MonoTime at) {
  return clock.UnixSeconds() - ToSeconds(clock.Now() - at);
}
inline MonoTime MonoTimeAt(const Clock& clock, double unix_seconds) {
  const double ago = clock.UnixSeconds() - unix_seconds;
  return clock.Now() -
         std::chrono::duration_cast<Duration>(std::chrono::duration<double>(ago > 0 ? ago : 0.0));
}

}  // namespace rocewatch
