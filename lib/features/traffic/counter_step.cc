#include "traffic/counter_step.h"

namespace rocewatch {

CounterStep ClassifyCounterStep(CounterWidth width, uint64_t previous, uint64_t current) {
  const uint64_t max = width.Max();
  const bool fits = previous <= max && current <= max;
  if (width.overflow == CounterOverflow::kSaturates && fits && width.bits < 64 && current == max) {
    return {CounterStepKind::kSaturated, 0};
  }
  if (current >= previous) return {CounterStepKind::kAdvanced, current - previous};
  if (width.overflow == CounterOverflow::kWraps && width.bits < 64 && fits) {
    const uint64_t through_wrap = (max - previous) + current + 1;
    if (through_wrap <= max / 2) return {CounterStepKind::kWrapped, through_wrap};
  }
  return {CounterStepKind::kReset, 0};
}

const char* CounterStepKindLabel(CounterStepKind kind) {
  switch (kind) {
    case CounterStepKind::kAdvanced:
      return "advanced";
    case CounterStepKind::kWrapped:
      return "wrapped";
    case CounterStepKind::kSaturated:
      return "saturated";
    case CounterStepKind::kReset:
      return "reset";
  }
  return "advanced";
}

}  // namespace rocewatch
