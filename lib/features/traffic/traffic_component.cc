#include "traffic/traffic_component.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <set>

#include "traffic/format_rate.h"
#include "traffic/traffic_metric_names.h"
#include "traffic/traffic_samples.h"

namespace rocewatch {
namespace {

bool IsTrouble(TrafficState state) {
  return state == TrafficState::kDegraded || state == TrafficState::kCollapsed;
}

}  // namespace

TrafficComponent::TrafficComponent(TrafficOptions options, Duration min_interval)
    : detector_(std::move(options)), min_interval_(min_interval) {}

StateDeclaration TrafficComponent::declaration() const {
  StateDeclaration declared;
  declared.reads = {StatePart::kNetdevLinks};
  if (use_consumers_) {
    declared.reads.Add(StatePart::kConsumers);
    declared.provides = {StatePart::kTrafficUnexplained, StatePart::kConsumerScanRequest};
  }
  if (keep_incidents_) {
    declared.provides.Add(StatePart::kRailIncidents);
    declared.reads.Add(StatePart::kRestoredIncidents);
  }
  return declared;
}

double RoundBaseline(double bytes_per_second) {
  if (!(bytes_per_second > 0) || !std::isfinite(bytes_per_second)) return 0;
  const double step = std::pow(10.0, std::floor(std::log10(bytes_per_second)) - 1);
  return std::round(bytes_per_second / step) * step;
}

Status TrafficComponent::Start(MonitorContext& ctx) {
  if (!keep_incidents_) return Status::Ok();
  // Before the first snapshot: the detector resumes the rails before it observes them.
  const std::optional<RestoredIncidents>* restored = ctx.state().restored_incidents();
  if (restored != nullptr && *restored) RestoreRails(ctx, **restored);
  ProvideIncidents(ctx);
  return Status::Ok();
}

void TrafficComponent::Resume(const std::map<PortKey, PortTrafficResume>& ports) {
  for (const auto& [key, from] : ports) {
    detector_.Resume(key, from);
    last_states_[key] = from.state;  // the daemon already reported entering it
  }
}

namespace {

const char* CheckOf(TrafficState state) {
  return state == TrafficState::kCollapsed ? "traffic_collapsed" : "traffic_degraded";
}

}  // namespace

// Ports that are gone are dropped on the first snapshot (JudgeRestored).
void TrafficComponent::RestoreRails(MonitorContext& ctx, const RestoredIncidents& restored) {
  const std::map<PortKey, PersistedRailTraffic>& saved = restored.incidents.rails;
  if (saved.empty()) return;
  const double age_seconds = ctx.clock().UnixSeconds() - restored.written_at_unix_seconds;
  // A file from the future (the wall clock went back) is as untrustworthy as an old one.
  if (age_seconds > ToSeconds(kRailRestoreTrust) || age_seconds < -60) {
    rails_not_trusted_ = saved.size();
    spdlog::warn(
        "state file written {:.0f} s ago (trusted for traffic up to {:.0f} s): the traffic state "
        "of {} rails starts afresh",
        age_seconds, ToSeconds(kRailRestoreTrust), saved.size());
    return;
  }
  std::map<PortKey, PortTrafficResume> ports;
  for (const auto& [key, r] : saved) {
    PortTrafficResume& into = ports[key];
    into.baseline = r.baseline;
    into.state = r.state;
    into.node_wide = r.node_wide;
    into.counters_at = MonoTimeAt(ctx.clock(), r.since);
  }
  Resume(ports);
  for (const auto& [key, from] : ports) {
    if (!IsTrouble(from.state)) continue;
    restored_pending_[key] = from.state;
    ++restore_counts_[{CheckOf(from.state), "checking"}];
  }
}

void TrafficComponent::ProvideIncidents(MonitorContext& ctx) {
  KeptRailIncidents kept;
  kept.restored = restore_counts_;
  kept.not_trusted = rails_not_trusted_;
  for (const auto& [key, status] : detector_.ports()) {
    // Rails with nothing to resume (no baseline, not in trouble) are left out.
    if (!status.baseline && !IsTrouble(status.state)) continue;
    PersistedRailTraffic& into = kept.rails[key];
    into.state = status.state;
    into.since = std::round(UnixSecondsAt(ctx.clock(), status.state_since));
    if (status.baseline) into.baseline = RoundBaseline(*status.baseline);
    into.node_wide = status.node_wide;
    into.consumers = status.consumers;
  }
  (void)ctx.state_writer().SetRailIncidents(std::move(kept));
}

void TrafficComponent::JudgeRestored(MonitorContext& ctx) {
  for (auto it = restored_pending_.begin(); it != restored_pending_.end();) {
    const auto& [key, restored] = *it;
    const PortTrafficStatus* status = detector_.Find(key);
    std::string verdict;
    if (status == nullptr) {
      verdict = "dropped";
      ctx.RecordEvent(key.ToString() + " traffic " + TrafficStateLabel(restored) +
                          " (restored at start) dropped: the port is gone",
                      Severity::kInfo);
    } else if (status->state == restored) {
      if (!status->rate) {  // nothing measured yet: still being checked
        ++it;
        continue;
      }
      verdict = "confirmed";
    } else {
      verdict = "healed";  // the state change itself is an event (OnSnapshot)
    }
    --restore_counts_[{CheckOf(restored), "checking"}];
    ++restore_counts_[{CheckOf(restored), verdict}];
    it = restored_pending_.erase(it);
  }
}

void TrafficComponent::ProvideUnexplained(MonitorContext& ctx,
                                          const std::vector<PortTrafficSample>& samples) {
  // Traffic on a rail nobody is known to hold: a consumer the incremental scan has not seen,
  // or a kernel RDMA user. The node state carries the detector's view to the exporter.
  std::set<std::string> unexplained;
  bool scan = false;
  for (const PortTrafficSample& sample : samples) {
    const PortTrafficStatus* status = detector_.Find(sample.key);
    const bool proven = status && sample.consumers == ConsumerKnowledge::kNone &&
                        status->consumers == ConsumerKnowledge::kUnknown;
    scan = scan || proven;
    if (proven) unexplained.insert(sample.key.device);
  }
  (void)ctx.state_writer().SetTrafficUnexplained(std::move(unexplained));
  (void)ctx.state_writer().SetConsumerScanRequested(scan);
}

void TrafficComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  // A scan request stands for one poll: the consumers component acts on it at the next.
  if (use_consumers_) (void)ctx.state_writer().SetConsumerScanRequested(false);
  if (last_fed_ && snapshot.taken_at - *last_fed_ < min_interval_) return;
  last_fed_ = snapshot.taken_at;
  static const std::map<std::string, NetdevState> kNoLinks;
  const std::map<std::string, NetdevState>* links = ctx.state().netdev_links();
  std::vector<PortTrafficSample> samples = TrafficSamplesFrom(snapshot, links ? *links : kNoLinks);
  const std::optional<ConsumerObservation>* consumers =
      use_consumers_ ? ctx.state().consumers() : nullptr;
  if (consumers) {
    for (PortTrafficSample& sample : samples)
      sample.consumers =
          *consumers ? (*consumers)->KnowledgeOf(sample.key.device) : ConsumerKnowledge::kUnknown;
  }
  detector_.Observe(snapshot.taken_at, samples);
  if (consumers) ProvideUnexplained(ctx, samples);

  // Entering and leaving degraded or collapsed are events, and a link lost under a job; pauses and
  // other link changes are not (the netlink component reports the link).
  std::map<PortKey, TrafficState> states;
  for (const auto& [key, status] : detector_.ports()) {
    states.emplace(key, status.state);
    auto before = last_states_.find(key);
    const TrafficState previous =
        before == last_states_.end() ? TrafficState::kIdle : before->second;
    const bool lost_under_job = status.state == TrafficState::kLinkDown && status.down_under_job;
    if (previous == status.state ||
        !(IsTrouble(previous) || IsTrouble(status.state) || lost_under_job)) {
      continue;
    }
    std::string what = key.ToString() + " traffic " + TrafficStateLabel(previous) + " -> " +
                       TrafficStateLabel(status.state);
    if (restored_pending_.count(key) != 0) what += " (restored at start, judged on live counters)";
    if (!status.reason.empty()) what += ": " + status.reason;
    if (consumers)
      what += "; consumers: " +
              DescribeEffectiveConsumers(consumers, ctx.state().traffic_unexplained(), key.device);
    ctx.RecordEvent(
        what, IsTrouble(status.state) || lost_under_job ? Severity::kWarning : Severity::kInfo);
  }
  last_states_ = std::move(states);
  JudgeRestored(ctx);
  if (keep_incidents_) ProvideIncidents(ctx);
}

void TrafficComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  constexpr std::string_view rate_name = kTrafficRateBytesPerSecondMetric;
  constexpr std::string_view baseline_name = kTrafficBaselineMetric;
  constexpr std::string_view state_name = kTrafficStateMetric;
  constexpr std::string_view node_wide_name = kTrafficCollapsedNodeWideMetric;
  constexpr std::string_view consumers_name = kTrafficConsumersMetric;
  constexpr std::string_view down_under_job_name = kRailDownUnderJobMetric;
  out.DeclareGauges({
      {rate_name,
       "RDMA traffic of the port (transmit + receive bytes per second) over the last poll "
       "interval; absent when a counter read failed or reset."},
      {baseline_name,
       "The port's learned traffic baseline: median of its recent active rates while healthy "
       "(docs/detection.md)."},
      {state_name,
       "1 for the port's current traffic state (idle, normal, degraded, collapsed, link_down), "
       "0 for the others."},
      {node_wide_name,
       "1 while the port is collapsed because every rail of the node stopped past the node-stop "
       "window (not against active siblings); unless a consumer is known to hold it "
       "(rocewatch_traffic_consumers{knowledge=\"present\"}) that may be a node idle between "
       "jobs."},
      {consumers_name,
       "1 for what the traffic detector knows of the port's consumers (present, none, unknown; "
       "unknown also where traffic proves a consumer no process is seen holding), 0 for the "
       "others: the knowledge its findings and the traffic alerts use."},
      {down_under_job_name,
       "1 while the port's link is down and a job holds the rail (its consumers present, or "
       "traffic on it shortly before the link went down): the finding rail_down_under_job."},
  });
  for (const auto& [key, status] : detector_.ports()) {
    const Labels labels = {{"device", key.device}, {"port", std::to_string(key.port)}};
    if (status.rate) out.Gauge(rate_name, "", labels, *status.rate);
    if (status.baseline) out.Gauge(baseline_name, "", labels, *status.baseline);
    for (TrafficState state : kAllTrafficStates) {
      Labels with_state = labels;
      with_state.emplace_back("state", TrafficStateLabel(state));
      out.Gauge(state_name, "", with_state, status.state == state ? 1 : 0);
    }
    out.Gauge(node_wide_name, "", labels,
              status.state == TrafficState::kCollapsed && status.node_wide ? 1 : 0);
    out.Gauge(down_under_job_name, "", labels,
              status.state == TrafficState::kLinkDown && status.down_under_job ? 1 : 0);
    for (ConsumerKnowledge knowledge :
         {ConsumerKnowledge::kPresent, ConsumerKnowledge::kNone, ConsumerKnowledge::kUnknown}) {
      Labels with_knowledge = labels;
      with_knowledge.emplace_back("knowledge", ConsumerKnowledgeLabel(knowledge));
      out.Gauge(consumers_name, "", with_knowledge, status.consumers == knowledge ? 1 : 0);
    }
  }
}

void TrafficComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  std::vector<Finding> findings = detector_.Findings();
  if (use_consumers_) {
    for (Finding& finding : findings) {
      const std::string device = finding.subject.substr(0, finding.subject.rfind('/'));
      finding.message +=
          "; consumers: " + DescribeEffectiveConsumers(ctx.state().consumers(),
                                                       ctx.state().traffic_unexplained(), device);
    }
  }
  out.insert(out.end(), findings.begin(), findings.end());
}

std::string TrafficComponent::RatesLine() const {
  std::string line;
  for (const auto& [key, status] : detector_.ports()) {
    if (!line.empty()) line += " | ";
    line += key.ToString() + " " + (status.rate ? FormatRate(*status.rate) : "? B/s") + " " +
            TrafficStateLabel(status.state);
  }
  return line;
}

}  // namespace rocewatch
