#include "traffic/error_counter_window.h"

#include <optional>

namespace rocewatch {

void ErrorCounterWindow::Observe(MonoTime at, const std::map<std::string, uint64_t>& hw_counters) {
  // The names as strings once (a lookup in `hw_counters` needs a std::string key).
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const TrafficErrorCounter& counter : kTrafficErrorCounters)
      names.emplace_back(counter.name);
    return names;
  }();
  for (size_t i = 0; i < kTrafficErrorCounters.size(); ++i) {
    auto found = hw_counters.find(kNames[i]);
    std::optional<uint64_t> value;
    if (found != hw_counters.end()) value = found->second;
    std::optional<Tracked>& tracked = counters_[i];
    if (!tracked) {
      if (!value) continue;  // never seen: nothing to do
      tracked.emplace(kTrafficErrorCounters[i].width);
    }
    if (std::optional<CounterIncrease> increase = tracked->series.Observe(at, value)) {
      tracked->increases.push_back({at, increase->delta, increase->span});
    }
    while (!tracked->increases.empty() && tracked->increases.front().at <= at - span_) {
      tracked->increases.pop_front();
    }
  }
}

void ErrorCounterWindow::Clear() {
  for (std::optional<Tracked>& tracked : counters_) tracked.reset();
}

std::vector<ErrorCounterRise> ErrorCounterWindow::Rises() const {
  std::vector<ErrorCounterRise> rises;
  for (size_t i = 0; i < kTrafficErrorCounters.size(); ++i) {
    const std::optional<Tracked>& tracked = counters_[i];
    if (!tracked) continue;
    uint64_t total = 0;
    Duration covered{};
    for (const Increase& increase : tracked->increases) {
      total += increase.delta;
      covered += increase.span;
    }
    if (total == 0) continue;
    rises.push_back({std::string(kTrafficErrorCounters[i].name), total,
                     static_cast<double>(total) / ToSeconds(covered)});
  }
  return rises;
}

}  // namespace rocewatch
