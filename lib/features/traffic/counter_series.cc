#include "traffic/counter_series.h"

namespace rocewatch {

std::optional<CounterIncrease> CounterSeries::Observe(MonoTime at, std::optional<uint64_t> value) {
  if (!value) return std::nullopt;
  if (!last_value_) {
    last_value_ = value;
    last_at_ = at;
    return std::nullopt;
  }
  if (at <= last_at_) return std::nullopt;
  const CounterStep step = ClassifyCounterStep(width_, *last_value_, *value);
  const Duration span = at - last_at_;
  last_value_ = value;
  last_at_ = at;
  switch (step.kind) {
    case CounterStepKind::kAdvanced:
      return CounterIncrease{step.delta, span};
    case CounterStepKind::kWrapped:
      ++wraps_;
      return CounterIncrease{step.delta, span};
    case CounterStepKind::kSaturated:
      ++saturations_;
      return std::nullopt;
    case CounterStepKind::kReset:
      ++resets_;
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace rocewatch
