#include "traffic/traffic_detector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

#include "core/duration.h"
#include "model/check_policy.h"
#include "traffic/format_rate.h"

namespace rocewatch {
namespace {

// Fewer samples than this in the fluctuation window say nothing about fluctuation.
constexpr size_t kMinJitterSamples = 10;

std::string Percent(double fraction) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", fraction * 100);
  return text;
}

std::string Decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string WholeSeconds(Duration d) {
  return FormatDuration(std::chrono::seconds(std::llround(ToSeconds(d))));
}

std::string DescribeErrorRises(const std::vector<ErrorCounterRise>& rises, Duration window) {
  if (rises.empty()) return "no error counter rose in the last " + WholeSeconds(window);
  std::string text = "error counters in the last " + WholeSeconds(window) + ":";
  for (size_t i = 0; i < rises.size(); ++i) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.2f/s", rises[i].per_second);
    text += (i == 0 ? " " : ", ") + rises[i].counter + " +" + std::to_string(rises[i].increase) +
            " (" + rate + ")";
  }
  return text;
}

}  // namespace

TrafficDetector::Tracker::Tracker(const TrafficOptions& options)
    : baseline(options.baseline_samples),
      recent(options.fluctuation_window),
      errors(options.error_window) {}

TrafficDetector::TrafficDetector(TrafficOptions options) : options_(std::move(options)) {}

const PortTrafficStatus* TrafficDetector::Find(const PortKey& key) const {
  auto found = statuses_.find(key);
  return found == statuses_.end() ? nullptr : &found->second;
}

void TrafficDetector::RefreshBaseline(Tracker& tracker) const {
  tracker.baseline_value.reset();
  if (tracker.baseline.size() >= options_.min_baseline_samples) {
    tracker.baseline_value = tracker.baseline.Median();
  }
}

ConsumerKnowledge TrafficDetector::EffectiveConsumers(const Tracker& tracker) {
  if (tracker.consumers == ConsumerKnowledge::kNone && tracker.traffic_without_consumers)
    return ConsumerKnowledge::kUnknown;
  return tracker.consumers;
}

bool TrafficDetector::IsStopped(const Tracker& tracker) const {
  if (!tracker.rate) return false;
  if (*tracker.rate < options_.active_rate) return true;
  std::optional<double> baseline = Baseline(tracker);
  return baseline && *tracker.rate < options_.stop_fraction * *baseline;
}

TrafficDetector::PortFacts TrafficDetector::FactsOf(const Tracker& tracker) const {
  PortFacts facts;
  facts.known = tracker.rate.has_value() && tracker.carrier != false;
  facts.active = facts.known && !IsStopped(tracker);
  if (!facts.active) return facts;
  if (std::optional<double> baseline = Baseline(tracker)) facts.ratio = *tracker.rate / *baseline;
  facts.jitter = tracker.recent.RelativeJitter(kMinJitterSamples);
  return facts;
}

TrafficDetector::SiblingView TrafficDetector::SiblingsOf(
    const PortKey& key, const std::map<PortKey, PortFacts>& facts) const {
  SiblingView view;
  std::vector<double> ratios;
  std::vector<double> jitters;
  for (const auto& [other, f] : facts) {
    if (other == key) continue;
    ++view.total;
    if (!f.active) continue;
    ++view.active;
    if (f.ratio) ratios.push_back(*f.ratio);
    if (f.jitter) jitters.push_back(*f.jitter);
  }
  view.median_ratio = MedianOf(std::move(ratios));
  view.median_jitter = MedianOf(std::move(jitters));
  return view;
}

void TrafficDetector::Enter(Tracker& tracker, TrafficState state, MonoTime at, std::string reason) {
  if (tracker.status.state != state) {
    tracker.status.state = state;
    tracker.status.state_since = at;
  }
  tracker.status.reason = std::move(reason);
  tracker.status.node_wide = false;
  tracker.status.down_under_job = false;
}

void TrafficDetector::Resume(const PortKey& key, const PortTrafficResume& from) {
  Tracker& tracker = trackers_.try_emplace(key, options_).first->second;
  if (from.baseline && *from.baseline > 0) {
    for (size_t i = 0; i < std::max<size_t>(options_.min_baseline_samples, 1); ++i)
      tracker.baseline.Add(*from.baseline);
    RefreshBaseline(tracker);
  }
  tracker.status.state = from.state;
  tracker.status.state_since = from.counters_at;
  tracker.status.node_wide = from.state == TrafficState::kCollapsed && from.node_wide;
  tracker.stop_time_unknown = true;
  tracker.transmit.Observe(from.counters_at, from.transmit_bytes);
  tracker.receive.Observe(from.counters_at, from.receive_bytes);
}

void TrafficDetector::Observe(MonoTime at, const std::vector<PortTrafficSample>& ports) {
  last_at_ = at;
  std::set<PortKey> present;
  for (const PortTrafficSample& sample : ports) {
    present.insert(sample.key);
    auto [it, created] = trackers_.try_emplace(sample.key, options_);
    Tracker& tracker = it->second;
    if (created) tracker.status.state_since = at;
    std::optional<CounterIncrease> tx = tracker.transmit.Observe(at, sample.transmit_bytes);
    std::optional<CounterIncrease> rx = tracker.receive.Observe(at, sample.receive_bytes);
    tracker.rate.reset();
    if (tx && rx) {
      tracker.rate = tx->PerSecond() + rx->PerSecond();
      tracker.rate_from = at - std::min(tx->span, rx->span);
    }
    tracker.carrier = sample.carrier;
    tracker.consumers = sample.consumers;
    if (sample.consumers == ConsumerKnowledge::kPresent) tracker.traffic_without_consumers = false;
    static const std::map<std::string, uint64_t> kNoCounters;
    tracker.errors.Observe(at, sample.hw_counters != nullptr ? *sample.hw_counters : kNoCounters);
  }
  std::erase_if(trackers_, [&](const auto& entry) { return !present.count(entry.first); });

  // Jitter windows first, so that every port's facts include this observation.
  for (auto& [key, tracker] : trackers_) {
    if (tracker.rate && tracker.carrier != false) tracker.recent.Add(at, *tracker.rate);
  }
  std::map<PortKey, PortFacts> facts;
  for (auto& [key, tracker] : trackers_) {
    PortFacts f = FactsOf(tracker);
    if (f.active && tracker.consumers == ConsumerKnowledge::kNone)
      tracker.traffic_without_consumers = true;
    facts.emplace(key, f);
  }
  UpdateNodeStop(at, facts);

  statuses_.clear();
  for (auto& [key, tracker] : trackers_) {
    const uint64_t learned = tracker.baseline.added();
    Evaluate(at, tracker, facts.at(key), SiblingsOf(key, facts));
    if (tracker.baseline.added() != learned) RefreshBaseline(tracker);
    tracker.status.rate = tracker.rate;
    tracker.status.baseline = Baseline(tracker);
    tracker.status.error_rises = tracker.errors.Rises();
    tracker.status.consumers = EffectiveConsumers(tracker);
    statuses_.emplace(key, tracker.status);
  }
}

void TrafficDetector::UpdateNodeStop(MonoTime at, const std::map<PortKey, PortFacts>& facts) {
  bool any_known = false;
  bool any_active = false;
  MonoTime silent_from{};  // the silence is proven from the latest interval start
  for (const auto& [key, f] : facts) {
    any_known = any_known || f.known;
    any_active = any_active || f.active;
    if (f.known) silent_from = std::max(silent_from, trackers_.at(key).rate_from);
  }
  if (any_active) {
    node_stopped_since_.reset();
    baselines_forgotten_ = false;
    return;
  }
  if (!any_known) return;  // nothing read: neither a stop nor a resumption
  if (!node_stopped_since_) node_stopped_since_ = silent_from;
  if (options_.forget_after > Duration::zero() && !baselines_forgotten_ &&
      at - *node_stopped_since_ >= options_.forget_after) {
    // The node has been silent for so long that its job is gone: start learning afresh. A rail
    // whose consumers are alive keeps its state: its job is hung, not gone.
    for (auto& [key, tracker] : trackers_) {
      if (EffectiveConsumers(tracker) == ConsumerKnowledge::kPresent) continue;
      tracker.traffic_without_consumers = false;
      tracker.baseline.Clear();
      RefreshBaseline(tracker);
      tracker.recent.Clear();
      tracker.stopped_with_siblings_since.reset();
      tracker.drop_since.reset();
      Enter(tracker, TrafficState::kIdle, at);
    }
    baselines_forgotten_ = true;
  }
}

void TrafficDetector::Evaluate(MonoTime at, Tracker& tracker, const PortFacts& own,
                               const SiblingView& siblings) {
  if (tracker.carrier == false) {
    NoteStopped(tracker, tracker.rate ? tracker.rate_from : at);
    tracker.stopped_with_siblings_since.reset();
    tracker.drop_since.reset();
    EnterLinkDown(at, tracker);
    return;
  }
  tracker.in_use_when_link_lost.clear();
  if (!tracker.rate) {
    // A missing sample changes nothing, except that link_down ends with the carrier loss: a port
    // with no byte counters (soft-RoCE has no counters/) never gets a rate, and one with counters
    // gets none on the first sample after the carrier returns. Until a rate says otherwise it is
    // idle, as a port the detector has no rate of starts.
    if (tracker.status.state == TrafficState::kLinkDown) Enter(tracker, TrafficState::kIdle, at);
    return;
  }
  if (own.active) {
    tracker.last_active_at = at;
    tracker.stopped_with_siblings_since.reset();
    tracker.stopped_since.reset();
    tracker.stop_time_unknown = false;
    EvaluateActive(at, tracker, own, siblings);
  } else {
    tracker.drop_since.reset();
    NoteStopped(tracker, tracker.rate_from);
    EvaluateStopped(at, tracker, siblings);
  }
}

std::string TrafficDetector::InUseEvidence(MonoTime at, const Tracker& tracker) {
  const ConsumerKnowledge consumers = EffectiveConsumers(tracker);
  if (consumers == ConsumerKnowledge::kPresent) return "processes held the rail";
  // Consumers known to be gone (a drained node): the traffic before was a job that has ended.
  if (consumers == ConsumerKnowledge::kNone || !tracker.last_active_at ||
      at - *tracker.last_active_at > kRailInUseWindow) {
    return {};
  }
  return "the rail had carried traffic " + WholeSeconds(at - *tracker.last_active_at) +
         " before (who holds it is unknown)";
}

void TrafficDetector::EnterLinkDown(MonoTime at, Tracker& tracker) {
  if (tracker.status.state != TrafficState::kLinkDown) {
    tracker.in_use_when_link_lost = InUseEvidence(at, tracker);
  }
  std::string reason;
  if (!tracker.in_use_when_link_lost.empty()) {
    reason = "the link went down while " + tracker.in_use_when_link_lost;
  } else if (EffectiveConsumers(tracker) == ConsumerKnowledge::kPresent) {
    reason = "the link is down while processes hold the rail";
  }
  const bool under_job = !reason.empty();
  Enter(tracker, TrafficState::kLinkDown, at, std::move(reason));
  tracker.status.down_under_job = under_job;
}

void TrafficDetector::NoteStopped(Tracker& tracker, MonoTime from) {
  if (!tracker.stopped_since && !tracker.stop_time_unknown) tracker.stopped_since = from;
}

std::optional<Duration> TrafficDetector::CheckpointSpreadOf(MonoTime at,
                                                            const Tracker& tracker) const {
  const Duration window = options_.checkpoint_spread;
  if (window <= Duration::zero() || tracker.status.node_wide || !tracker.stopped_since ||
      !node_stopped_since_) {
    return std::nullopt;
  }
  // A gap between a job's bursts silences every rail for a moment: that is no pause.
  if (at - *node_stopped_since_ < window) return std::nullopt;
  const Duration spread = std::max(*node_stopped_since_ - *tracker.stopped_since, Duration::zero());
  if (spread > window) return std::nullopt;  // it stopped first, long before: it died
  return spread;
}

void TrafficDetector::EvaluateStopped(MonoTime at, Tracker& tracker, const SiblingView& siblings) {
  const ConsumerKnowledge consumers = EffectiveConsumers(tracker);
  // Nobody holds the rail: quiet is idle, however long it lasts, and a collapse ends with the
  // consumers that suffered it.
  if (consumers == ConsumerKnowledge::kNone) {
    tracker.stopped_with_siblings_since.reset();
    Enter(tracker, TrafficState::kIdle, at);
    return;
  }
  // A collapse holds until the rail carries traffic again (or loses its carrier, or its consumers
  // exit): the job that crashed because of it stopping the siblings too does not make it healthy.
  // Except when the siblings stopped within the checkpoint spread of it: then it only stopped
  // first, and the whole node paused (a checkpoint reaching the rails one after the other).
  if (tracker.status.state == TrafficState::kCollapsed) {
    if (std::optional<Duration> spread = CheckpointSpreadOf(at, tracker)) {
      tracker.stopped_with_siblings_since.reset();
      Enter(tracker, TrafficState::kIdle, at,
            "collapse withdrawn: every rail of the node stopped within " + WholeSeconds(*spread) +
                " of this one (checkpoint spread " + WholeSeconds(options_.checkpoint_spread) +
                ") and the node has been silent for " + WholeSeconds(at - *node_stopped_since_) +
                ": the whole node paused (a checkpoint), not this rail; " +
                DescribeErrorRises(tracker.errors.Rises(), options_.error_window));
    }
    return;
  }
  const std::optional<double> baseline = Baseline(tracker);
  if (baseline && siblings.active > 0) {
    if (!tracker.stopped_with_siblings_since) {
      tracker.stopped_with_siblings_since = tracker.rate_from;
    }
    const Duration stopped_for = at - *tracker.stopped_with_siblings_since;
    if (stopped_for >= options_.collapse_after) {
      Enter(tracker, TrafficState::kCollapsed, at,
            "fell to " + FormatRate(*tracker.rate) + " (baseline " + FormatRate(*baseline) +
                ") for " + WholeSeconds(stopped_for) + " while " + std::to_string(siblings.active) +
                " of " + std::to_string(siblings.total) + " sibling rails carry traffic");
    } else if (tracker.status.state == TrafficState::kLinkDown) {
      Enter(tracker, TrafficState::kIdle, at);
    }
    return;
  }
  tracker.stopped_with_siblings_since.reset();
  if (baseline && options_.node_stop_window > Duration::zero() && node_stopped_since_ &&
      at - *node_stopped_since_ >= options_.node_stop_window) {
    const std::string stopped = "every rail of the node has carried no traffic for " +
                                WholeSeconds(at - *node_stopped_since_) + " (node-stop window " +
                                WholeSeconds(options_.node_stop_window) + "; baseline " +
                                FormatRate(*baseline) + ")";
    Enter(tracker, TrafficState::kCollapsed, at,
          consumers == ConsumerKnowledge::kPresent
              ? stopped + " while the processes holding the rail are alive: the job is hung"
              : stopped +
                    "; who holds the rail is unknown, so the job is hung or gone (a node "
                    "idle between jobs looks the same)");
    tracker.status.node_wide = true;
    return;
  }
  Enter(tracker, TrafficState::kIdle, at);
}

void TrafficDetector::EvaluateActive(MonoTime at, Tracker& tracker, const PortFacts& own,
                                     const SiblingView& siblings) {
  const double rate = *tracker.rate;
  const std::optional<double> baseline = Baseline(tracker);
  if (!baseline) {
    tracker.baseline.Add(rate);
    Enter(tracker, TrafficState::kNormal, at);
    return;
  }
  std::string reason;
  // A swinging rail is also below its baseline half of the time: name the swing first.
  if (own.jitter && siblings.median_jitter && *own.jitter > options_.fluctuation_jitter &&
      *own.jitter > options_.fluctuation_vs_siblings * *siblings.median_jitter) {
    reason = "rate fluctuates: relative jitter " + Decimal(*own.jitter) + " over the last " +
             WholeSeconds(options_.fluctuation_window) + " against " +
             Decimal(*siblings.median_jitter) + " on its sibling rails";
  } else if (own.ratio && siblings.median_ratio && *own.ratio < options_.degraded_fraction &&
             *own.ratio < options_.sibling_fraction * *siblings.median_ratio) {
    reason = "rate " + FormatRate(rate) + " is " + Percent(*own.ratio) + " of its baseline " +
             FormatRate(*baseline) + " while its sibling rails run at " +
             Percent(*siblings.median_ratio) + " of theirs";
  }
  if (reason.empty()) {
    tracker.drop_since.reset();
    tracker.baseline.Add(rate);  // learn only from samples that raise no suspicion
    Enter(tracker, TrafficState::kNormal, at);
    return;
  }
  if (!tracker.drop_since) tracker.drop_since = tracker.rate_from;
  if (at - *tracker.drop_since >= options_.degraded_after) {
    Enter(tracker, TrafficState::kDegraded, at, std::move(reason));
  } else if (tracker.status.state != TrafficState::kDegraded) {
    Enter(tracker, TrafficState::kNormal, at);
  }
}

std::vector<Finding> TrafficDetector::Findings() const {
  struct Kind {
    const char* check;
    const char* headline;
    const char* remedy;
  };
  static const Kind kCollapsed = {
      "traffic_collapsed", "RDMA traffic collapsed",
      "Check the rail's link and cable (rocewatch diagnose: link_downed, symbol_error, "
      "retransmission counters), its switch port and the job's NCCL log; a dead rail stalls "
      "every collective: restart the job without this node. If the job deliberately uses a "
      "subset of the rails (NCCL_IB_HCA) or nodes idle between jobs, tune "
      "--traffic-node-stop-window."};
  static const Kind kNodeStopped = {
      "traffic_node_stopped", "RDMA traffic stopped on every rail, consumers not known",
      "Check whether a job is scheduled on this node: a hung job and a node between jobs look "
      "the same while rocewatch cannot tell who holds the rails (traffic that no process holds "
      "comes from a kernel RDMA user such as NFS over RDMA or NVMe-oF). Give rocewatch read "
      "access to /proc or the kubelet's pod-resources socket so that it can tell."};
  static const Kind kRailDown = {
      "rail_down_under_job", "Link down under a job",
      "The job on this node has lost this rail: its collectives over it stall or fail (NCCL does "
      "not move a communicator to the remaining rails). Drain the node and restart the job on "
      "healthy nodes, then repair the link: admin state, cable, optics, the switch port "
      "(rocewatch diagnose: link_down_reason)."};
  static const Kind kDegraded = {
      "traffic_degraded", "RDMA traffic degraded",
      "Compare the rail with its siblings: retransmissions and ACK timeouts point at the link "
      "or cable (symbol_error, link_error_recovery), CNPs at congestion (PFC/ECN settings, "
      "the switch); enable adaptive retransmission, and raise NCCL_IB_TIMEOUT so that a "
      "short flap does not kill the job."};
  std::vector<Finding> findings;
  for (const auto& [key, status] : statuses_) {
    const Kind* kind = nullptr;
    if (status.state == TrafficState::kCollapsed) {
      kind = IsUnattributedNodeStop(status) ? &kNodeStopped : &kCollapsed;
    } else if (status.state == TrafficState::kDegraded) {
      kind = &kDegraded;
    } else if (status.state == TrafficState::kLinkDown && status.down_under_job) {
      kind = &kRailDown;
    }
    if (kind == nullptr) continue;
    findings.push_back({SeverityOf(kind->check), kind->check, key.ToString(),
                        std::string(kind->headline) + " for " +
                            WholeSeconds(last_at_ - status.state_since) + ": " + status.reason +
                            "; " + DescribeErrorRises(status.error_rises, options_.error_window),
                        kind->remedy});
  }
  return findings;
}

bool IsUnattributedNodeStop(const PortTrafficStatus& status) {
  return status.state == TrafficState::kCollapsed && status.node_wide &&
         status.consumers != ConsumerKnowledge::kPresent;
}

}  // namespace rocewatch
