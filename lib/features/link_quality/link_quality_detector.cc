#include "link_quality/link_quality_detector.h"

#include <cstdio>

#include "model/check_policy.h"

namespace rocewatch {
namespace {

// A counter that went down was reset (driver reload, port reset): the window starts again.
bool WentDown(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  return before && after && *after < *before;
}

bool Reset(const LinkQualitySample& before, const LinkQualitySample& after) {
  return WentDown(before.corrected_bits, after.corrected_bits) ||
         WentDown(before.received_bits, after.received_bits) ||
         WentDown(before.uncorrectable_blocks, after.uncorrectable_blocks) ||
         WentDown(before.symbol_errors, after.symbol_errors);
}

uint64_t Delta(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  return before && after && *after >= *before ? *after - *before : 0;
}

}  // namespace

const char* LinkQualityStateLabel(LinkQualityState state) {
  switch (state) {
    case LinkQualityState::kOk:
      return "ok";
    case LinkQualityState::kDegraded:
      return "degraded";
    case LinkQualityState::kFailing:
      return "failing";
  }
  return "ok";
}

std::string FormatRatio(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1e", value);
  return text;
}

void LinkQualityDetector::Observe(const std::map<std::string, LinkQualitySample>& samples) {
  for (auto it = history_.begin(); it != history_.end();) {
    if (samples.count(it->first)) {
      ++it;
    } else {
      status_.erase(it->first);
      it = history_.erase(it);
    }
  }
  std::erase_if(resumed_, [&](const auto& entry) { return !samples.count(entry.first); });
  for (const auto& [netdev, sample] : samples) {
    std::deque<LinkQualitySample>& history = history_[netdev];
    // While the link is down nothing is carried: the window restarts when it returns.
    if (!sample.link_up || (!history.empty() && Reset(history.back(), sample))) history.clear();
    if (!history.empty() && sample.at <= history.back().at) continue;  // not newer: ignore
    history.push_back(sample);
    // Keep the newest sample at or before the window's start as its baseline.
    const MonoTime start = sample.at - options_.window;
    while (history.size() > 2 && history[1].at <= start) history.pop_front();
    LinkQualityStatus status = sample.link_up ? Evaluate(history) : LinkQualityStatus{};
    if (auto resumed = resumed_.find(netdev); resumed != resumed_.end()) {
      if (!sample.link_up || status.window_seconds >= ToSeconds(options_.window) ||
          status.state >= resumed->second.state) {
        resumed_.erase(resumed);
      } else {
        status.state = resumed->second.state;
        status.reason = resumed->second.reason +
                        " (judged before the restart; judged again once the live counters span " +
                        std::to_string(static_cast<int>(ToSeconds(options_.window))) + " s)";
      }
    }
    status_[netdev] = std::move(status);
  }
}

void LinkQualityDetector::Resume(std::map<std::string, ResumedLinkQuality> verdicts) {
  std::erase_if(verdicts,
                [](const auto& entry) { return entry.second.state == LinkQualityState::kOk; });
  resumed_ = std::move(verdicts);
}

std::map<std::string, ResumedLinkQuality> LinkQualityDetector::Verdicts() const {
  std::map<std::string, ResumedLinkQuality> out;
  for (const auto& [netdev, status] : status_) {
    if (status.state == LinkQualityState::kOk) continue;
    auto resumed = resumed_.find(netdev);
    out[netdev] = resumed != resumed_.end() ? resumed->second
                                            : ResumedLinkQuality{status.state, status.reason};
  }
  // Resumed before any sample came: kept as they were.
  for (const auto& [netdev, verdict] : resumed_) out.insert({netdev, verdict});
  return out;
}

LinkQualityStatus LinkQualityDetector::Evaluate(
    const std::deque<LinkQualitySample>& history) const {
  LinkQualityStatus status;
  if (history.size() < 2) return status;
  const LinkQualitySample& first = history.front();
  const LinkQualitySample& last = history.back();
  const double span = ToSeconds(last.at - first.at);
  status.window_seconds = span;
  status.uncorrectable_in_window = Delta(first.uncorrectable_blocks, last.uncorrectable_blocks);
  status.symbol_errors_in_window = Delta(first.symbol_errors, last.symbol_errors);

  if (span >= ToSeconds(options_.min_span) && first.corrected_bits && last.corrected_bits) {
    const double corrected = static_cast<double>(Delta(first.corrected_bits, last.corrected_bits));
    double carried = 0;
    if (first.received_bits && last.received_bits) {
      carried = static_cast<double>(Delta(first.received_bits, last.received_bits));
    } else if (last.speed_mbps && *last.speed_mbps > 0) {
      carried = static_cast<double>(*last.speed_mbps) * 1e6 * span;
    }
    if (carried > 0) status.pre_fec_ber = corrected / carried;
  }

  auto raise = [&status](LinkQualityState state, const std::string& why) {
    if (state > status.state) status.state = state;
    if (!status.reason.empty()) status.reason += "; ";
    status.reason += why;
  };
  const std::string over = " in the last " + std::to_string(static_cast<int>(span + 0.5)) + " s";
  if (status.pre_fec_ber) {
    const double ber = *status.pre_fec_ber;
    if (ber >= options_.failing_ber) {
      raise(LinkQualityState::kFailing, "pre-FEC BER " + FormatRatio(ber) + " (failing at " +
                                            FormatRatio(options_.failing_ber) + ")");
    } else if (ber >= options_.degraded_ber) {
      raise(LinkQualityState::kDegraded, "pre-FEC BER " + FormatRatio(ber) + " (degraded at " +
                                             FormatRatio(options_.degraded_ber) + ")");
    }
  }
  if (status.uncorrectable_in_window > 0) {
    const bool failing = span > 0 && static_cast<double>(status.uncorrectable_in_window) / span >=
                                         options_.failing_uncorrectable_per_second;
    raise(failing ? LinkQualityState::kFailing : LinkQualityState::kDegraded,
          std::to_string(status.uncorrectable_in_window) + " uncorrectable FEC blocks" + over);
  }
  if (status.symbol_errors_in_window > 0)
    raise(LinkQualityState::kDegraded,
          std::to_string(status.symbol_errors_in_window) + " PHY symbol errors" + over);
  return status;
}

std::vector<Finding> LinkQualityDetector::Findings() const {
  std::vector<Finding> findings;
  for (const auto& [netdev, status] : status_) {
    if (status.state == LinkQualityState::kOk) continue;
    Finding f;
    const bool failing = status.state == LinkQualityState::kFailing;
    f.check = failing ? "link_quality_failing" : "link_quality_degraded";
    f.severity = SeverityOf(f.check);
    f.subject = netdev;
    f.message =
        std::string("link quality ") + LinkQualityStateLabel(status.state) + ": " + status.reason;
    f.remedy = failing ? "frames are being lost on the wire: drain the node's jobs from this rail, "
                         "then reseat or replace the cable/transceiver and check the switch port "
                         "(docs/runbooks/RoceFecUncorrectable.md)"
                       : "the link corrects more errors than a healthy one: check the cable, "
                         "transceiver and switch port before it starts to flap "
                         "(docs/runbooks/RoceLinkQualityDegraded.md)";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace rocewatch
