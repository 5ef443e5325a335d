#pragma once
// Runs an event loop on a fake clock: advances the clock by `step` and runs what is due, until
// `d` has passed. Monitor and component tests use it instead of sleeping.

#include <chrono>

#include "core/event_loop.h"
#include "support/fake_clock.h"

namespace rocewatch {

inline void RunLoopFor(FakeClock& clock, EventLoop& loop, Duration d,
                       Duration step = std::chrono::milliseconds(100)) {
  for (Duration passed{}; passed < d; passed += step) {
    clock.Advance(step);
    loop.RunOnce(Duration::zero());
  }
}

}  // namespace rocewatch
