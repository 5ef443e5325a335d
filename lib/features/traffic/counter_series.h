#pragma once
// One kernel counter read at successive instants, turned into increases over time.
//
// Contract:
//   - the first value, a failed read (nullopt), a saturated value and a reset give no increase:
//     a missing sample is "no rate", never "rate 0";
//   - after a failed read the series keeps its last good value, so the next good read gives the
//     increase over the whole gap (a true average);
//   - after a reset or a saturated value the series restarts from the value just read;
//   - a read whose time is not after the last good one is ignored.
// Not thread-safe; one series per counter.

#include <cstdint>
#include <optional>

#include "core/clock.h"
#include "traffic/counter_step.h"

namespace rocewatch {

struct CounterIncrease {
  uint64_t delta = 0;
  Duration span{};  // > 0

  double PerSecond() const { return static_cast<double>(delta) / ToSeconds(span); }
};

class CounterSeries {
 public:
  explicit CounterSeries(CounterWidth width = kCounter64) : width_(width) {}

  std::optional<CounterIncrease> Observe(MonoTime at, std::optional<uint64_t> value);

  // How often the series restarted or wrapped (for logs and tests).
  uint64_t resets() const { return resets_; }
  uint64_t wraps() const { return wraps_; }
  uint64_t saturations() const { return saturations_; }

 private:
  CounterWidth width_;
  std::optional<uint64_t> last_value_;
  MonoTime last_at_{};
  uint64_t resets_ = 0;
  uint64_t wraps_ = 0;
  uint64_t saturations_ = 0;
};

}  // namespace rocewatch
