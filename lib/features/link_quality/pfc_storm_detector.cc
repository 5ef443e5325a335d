#include "link_quality/pfc_storm_detector.h"

#include <cmath>

#include "model/check_policy.h"

namespace rocewatch {
namespace {

uint64_t Delta(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  return before && after && *after >= *before ? *after - *before : 0;
}

// The newest sample at or before `start`, or the oldest one.
const PfcSample& BaselineFor(const std::deque<PfcSample>& history, MonoTime start) {
  const PfcSample* baseline = &history.front();
  for (const PfcSample& s : history) {
    if (s.at > start) break;
    baseline = &s;
  }
  return *baseline;
}

}  // namespace

void PfcStormDetector::Observe(const std::map<std::string, PfcSample>& samples) {
  for (auto it = history_.begin(); it != history_.end();) {
    if (samples.count(it->first)) {
      ++it;
      continue;
    }
    driver_.erase(it->first);
    for (auto p = priorities_.begin(); p != priorities_.end();)
      p = p->first.netdev == it->first ? priorities_.erase(p) : std::next(p);
    it = history_.erase(it);
  }
  // Storms resumed for netdevs that are not sampled any more.
  std::erase_if(priorities_, [&](const auto& entry) { return !samples.count(entry.first.netdev); });
  std::erase_if(driver_, [&](const auto& entry) { return !samples.count(entry.first); });
  std::erase_if(resumed_driver_, [&](const auto& entry) { return !samples.count(entry.first); });

  for (const auto& [netdev, sample] : samples) {
    std::deque<PfcSample>& history = history_[netdev];
    if (!history.empty() && sample.at <= history.back().at) continue;
    history.push_back(sample);
    const Duration keep = std::max(options_.window, options_.event_window);
    while (history.size() > 2 && history[1].at <= sample.at - keep) history.pop_front();

    const PfcSample& base = BaselineFor(history, sample.at - options_.window);
    const double span = ToSeconds(sample.at - base.at);
    for (const auto& [slot, micros] : sample.pause_microseconds) {
      PfcPriorityStatus& status = priorities_[{netdev, slot.first, slot.second}];
      auto before = base.pause_microseconds.find(slot);
      if (before == base.pause_microseconds.end() || micros < before->second ||
          span < ToSeconds(options_.min_span)) {
        status.paused_fraction.reset();
        if (before != base.pause_microseconds.end() && micros < before->second)
          status.storm = false;  // counter reset
        continue;
      }
      const double fraction =
          std::min(1.0, static_cast<double>(micros - before->second) * 1e-6 / span);
      status.paused_fraction = fraction;
      if (fraction >= options_.storm_fraction) {
        status.storm = true;
      } else if (fraction < options_.clear_fraction) {
        status.storm = false;
      }
    }
    const PfcSample& event_base = BaselineFor(history, sample.at - options_.event_window);
    PfcDriverStormStatus& driver = driver_[netdev];
    driver.warning_events_in_window =
        Delta(event_base.storm_warning_events, sample.storm_warning_events);
    driver.error_events_in_window = Delta(event_base.storm_error_events, sample.storm_error_events);
    if (auto resumed = resumed_driver_.find(netdev); resumed != resumed_driver_.end()) {
      if (sample.at - history.front().at >= options_.event_window) {
        resumed_driver_.erase(resumed);
      } else {
        driver.warning_events_in_window =
            std::max(driver.warning_events_in_window, resumed->second.warning_events_in_window);
        driver.error_events_in_window =
            std::max(driver.error_events_in_window, resumed->second.error_events_in_window);
      }
    }
  }
}

void PfcStormDetector::Resume(ResumedPfcStorms storms) {
  for (const PfcKey& key : storms.storms) priorities_[key].storm = true;
  std::erase_if(storms.driver, [](const auto& entry) {
    return entry.second.warning_events_in_window == 0 && entry.second.error_events_in_window == 0;
  });
  resumed_driver_ = std::move(storms.driver);
  for (const auto& [netdev, counts] : resumed_driver_) driver_[netdev] = counts;
}

ResumedPfcStorms PfcStormDetector::Storms() const {
  ResumedPfcStorms out;
  for (const auto& [key, status] : priorities_)
    if (status.storm) out.storms.insert(key);
  for (const auto& [netdev, driver] : driver_)
    if (driver.warning_events_in_window > 0 || driver.error_events_in_window > 0)
      out.driver[netdev] = driver;
  return out;
}

std::vector<Finding> PfcStormDetector::Findings() const {
  std::vector<Finding> findings;
  for (const auto& [key, status] : priorities_) {
    if (!status.storm) continue;
    Finding f;
    f.check = key.direction == PauseDirection::kTx ? "pfc_storm_tx" : "pfc_storm_rx";
    f.severity = SeverityOf(f.check);
    f.subject = key.netdev;
    const int percent =
        status.paused_fraction ? static_cast<int>(std::lround(*status.paused_fraction * 100)) : -1;
    const std::string paused =
        percent >= 0 ? std::to_string(percent) + "% of the last window" : "most of the window";
    if (key.direction == PauseDirection::kTx) {
      f.message = "PFC storm, priority " + std::to_string(key.priority) +
                  ": this host sent pause " + paused +
                  " (its receive path is not draining: host, PCIe or a stuck receiver, not the "
                  "network)";
      f.remedy =
          "check the host side: CPU/memory pressure of the receiving job, PCIe errors, "
          "rx_discards_phy and out_of_buffer; the switch's PFC watchdog may shut the "
          "priority (docs/runbooks/RocePfcStorm.md)";
    } else {
      f.message = "PFC storm, priority " + std::to_string(key.priority) +
                  ": the fabric paused this host " + paused +
                  " (congestion or a storm elsewhere in the fabric pushes back)";
      f.remedy =
          "look for the source: another host sending pause (its rocewatch reports a tx "
          "storm), a congested switch port, ECN/DCQCN settings "
          "(docs/runbooks/RocePfcStorm.md)";
    }
    findings.push_back(std::move(f));
  }
  for (const auto& [netdev, driver] : driver_) {
    if (driver.warning_events_in_window == 0 && driver.error_events_in_window == 0) continue;
    Finding f;
    f.check = "pfc_storm_driver";
    f.severity = SeverityOf(f.check);
    f.subject = netdev;
    f.message = "the NIC detected a device stall sending pause (" +
                std::to_string(driver.warning_events_in_window) + " warning and " +
                std::to_string(driver.error_events_in_window) + " error events in the last " +
                std::to_string(static_cast<int>(ToSeconds(options_.event_window))) + " s)";
    f.remedy =
        "the receive path of this host stalled long enough for the NIC's pause storm "
        "prevention to act: check the host side (docs/runbooks/RocePfcStorm.md)";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace rocewatch
