#include "traffic/traffic_component.h"

#include "traffic/format_rate.h"
#include "traffic/traffic_samples.h"

namespace rocewatch {
namespace {

bool IsTrouble(TrafficState state) {
  return state == TrafficState::kDegraded || state == TrafficState::kCollapsed;
}

}  // namespace

TrafficComponent::TrafficComponent(TrafficOptions options, Duration min_interval)
    : detector_(std::move(options)), min_interval_(min_interval) {}

void TrafficComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  if (last_fed_ && snapshot.taken_at - *last_fed_ < min_interval_) return;
  last_fed_ = snapshot.taken_at;
  detector_.Observe(snapshot.taken_at, TrafficSamplesFrom(snapshot, ctx.netdevs()));

  // Entering and leaving degraded or collapsed are events; pauses and link changes are not (the
  // netlink component reports the link).
  std::map<PortKey, TrafficState> states;
  for (const auto& [key, status] : detector_.ports()) {
    states.emplace(key, status.state);
    auto before = last_states_.find(key);
    const TrafficState previous =
        before == last_states_.end() ? TrafficState::kIdle : before->second;
    if (previous == status.state || !(IsTrouble(previous) || IsTrouble(status.state))) continue;
    std::string what = key.ToString() + " traffic " + TrafficStateLabel(previous) + " -> " +
                       TrafficStateLabel(status.state);
    if (!status.reason.empty()) what += ": " + status.reason;
    ctx.RecordEvent(what, IsTrouble(status.state) ? Severity::kWarning : Severity::kInfo);
  }
  last_states_ = std::move(states);
}

void TrafficComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  const std::string rate_name = "rocewatch_traffic_rate_bytes_per_second";
  const std::string baseline_name = "rocewatch_traffic_baseline_bytes_per_second";
  const std::string state_name = "rocewatch_traffic_state";
  out.Declare(rate_name,
              "RDMA traffic of the port (transmit + receive bytes per second) over the last poll "
              "interval; absent when a counter read failed or reset.",
              prometheus::MetricType::Gauge);
  out.Declare(baseline_name,
              "The port's learned traffic baseline: median of its recent active rates while "
              "healthy (docs/detection.md).",
              prometheus::MetricType::Gauge);
  out.Declare(state_name,
              "1 for the port's current traffic state (idle, normal, degraded, collapsed, "
              "link_down), 0 for the others.",
              prometheus::MetricType::Gauge);
  for (const auto& [key, status] : detector_.ports()) {
    const Labels labels = {{"device", key.device}, {"port", std::to_string(key.port)}};
    if (status.rate) out.Gauge(rate_name, "", labels, *status.rate);
    if (status.baseline) out.Gauge(baseline_name, "", labels, *status.baseline);
    for (TrafficState state : kAllTrafficStates) {
      Labels with_state = labels;
      with_state.emplace_back("state", TrafficStateLabel(state));
      out.Gauge(state_name, "", with_state, status.state == state ? 1 : 0);
    }
  }
}

void TrafficComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  (void)ctx;
  std::vector<Finding> findings = detector_.Findings();
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
