// ClassifyCounterStep (lib/features/traffic/counter_step.h): two successive kernel counter values,
// of any width, wrapping or saturating. Counter values are outside input (a reset, a wrap, a driver
// that prints garbage that happens to parse); the rate computed from the step must never be
// invented.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz/fuzz_check.h"
#include "traffic/counter_step.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 18) return 0;
  CounterWidth width;
  width.bits = 1 + data[0] % 64;  // REQUIRES 1..64
  width.overflow = data[1] & 1 ? CounterOverflow::kSaturates : CounterOverflow::kWraps;
  width.scale = width.overflow == CounterOverflow::kWraps ? 1 : 1 + (data[1] >> 1) % 4;
  uint64_t previous, current;
  std::memcpy(&previous, data + 2, 8);
  std::memcpy(&current, data + 10, 8);

  CounterStep step = ClassifyCounterStep(width, previous, current);
  switch (step.kind) {
    case CounterStepKind::kAdvanced:
      FUZZ_CHECK(current >= previous && step.delta == current - previous);
      break;
    case CounterStepKind::kWrapped:
      // Only a narrower-than-64-bit wrapping counter wraps, by at most half its range.
      FUZZ_CHECK(current < previous && width.bits < 64);
      FUZZ_CHECK(width.overflow == CounterOverflow::kWraps);
      FUZZ_CHECK(step.delta > 0 && step.delta <= width.Max() / 2);
      FUZZ_CHECK(previous + step.delta - 1 - width.Max() == current);  // modular: through max
      break;
    case CounterStepKind::kSaturated:
      FUZZ_CHECK(width.overflow == CounterOverflow::kSaturates && current == width.Max());
      FUZZ_CHECK(!step.HasDelta());
      break;
    case CounterStepKind::kReset:
      FUZZ_CHECK(current < previous && !step.HasDelta());
      break;
  }
  FUZZ_CHECK(CounterStepKindLabel(step.kind) != nullptr);
  return 0;
}
