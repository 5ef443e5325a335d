#pragma once
// A clock that moves only when a test says so (ninja's Tick()).

#include "core/clock.h"

namespace rocewatch {

class FakeClock final : public Clock {
 public:
  // Starts at an arbitrary, non-zero monotonic time and at 2026-01-01T00:00:00Z wall time.
  FakeClock() : now_(MonoTime{} + std::chrono::hours(1000)) {}
  MonoTime Now() const override { return now_; }
  double UnixSeconds() const override { return unix_base_ + ToSeconds(now_ - start_); }
  void Advance(Duration d) { now_ += d; }
  void SetUnixBase(double unix_seconds) { unix_base_ = unix_seconds; }

 private:
  MonoTime now_;
  const MonoTime start_ = MonoTime{} + std::chrono::hours(1000);
  double unix_base_ = 1767225600.0;
};

}  // namespace rocewatch
