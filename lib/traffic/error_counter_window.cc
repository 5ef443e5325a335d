#include "traffic/error_counter_window.h"

#include <optional>

namespace rocewatch {

void ErrorCounterWindow::Observe(MonoTime at, const std::map<std::string, uint64_t>& hw_counters) {
  for (const TrafficErrorCounter& counter : kTrafficErrorCounters) {
    const std::string_view name = counter.name;
    auto found = hw_counters.find(std::string(name));
    std::optional<uint64_t> value;
    if (found != hw_counters.end()) value = found->second;
    if (!value && counters_.find(name) == counters_.end()) continue;  // never seen: nothing to do
    Tracked& tracked = counters_.try_emplace(std::string(name), counter.width).first->second;
    if (std::optional<CounterIncrease> increase = tracked.series.Observe(at, value)) {
      tracked.increases.push_back({at, increase->delta, increase->span});
    }
    while (!tracked.increases.empty() && tracked.increases.front().at <= at - span_) {
      tracked.increases.pop_front();
    }
  }
}

void ErrorCounterWindow::Clear() { counters_.clear(); }

std::vector<ErrorCounterRise> ErrorCounterWindow::Rises() const {
  std::vector<ErrorCounterRise> rises;
  for (const TrafficErrorCounter& counter : kTrafficErrorCounters) {
    const std::string_view name = counter.name;
    auto found = counters_.find(name);
    if (found == counters_.end()) continue;
    uint64_t total = 0;
    Duration covered{};
    for (const Increase& increase : found->second.increases) {
      total += increase.delta;
      covered += increase.span;
    }
    if (total == 0) continue;
    rises.push_back({std::string(name), total, static_cast<double>(total) / ToSeconds(covered)});
  }
  return rises;
}

}  // namespace rocewatch
