#include "daemon/restart_state.h"

#include <spdlog/spdlog.h>

#include <cmath>
#include <set>

namespace rocewatch {
namespace {

// A time of the monotonic clock as Unix seconds, and back, through the clock's current reading
// of both.
double ToUnix(const Clock& clock, MonoTime at) {
  return clock.UnixSeconds() - ToSeconds(clock.Now() - at);
}
MonoTime ToMono(const Clock& clock, double unix_seconds) {
  const double ago = std::max(0.0, clock.UnixSeconds() - unix_seconds);
  return clock.Now() - std::chrono::duration_cast<Duration>(std::chrono::duration<double>(ago));
}

std::string Counts(const std::map<std::pair<std::string, std::string>, size_t>& counts) {
  std::string text;
  for (const auto& [key, n] : counts)
    if (n > 0)
      text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + key.first + " " + key.second;
  return text.empty() ? "none" : text;
}

constexpr size_t kMaxKeptReason = 512;

EthtoolComponent::Verdicts VerdictsOf(const PersistedIncidents& saved) {
  EthtoolComponent::Verdicts verdicts;
  for (const auto& [netdev, kept] : saved.link_quality)
    for (LinkQualityState state : kAllLinkQualityStates)
      if (kept.state == LinkQualityStateLabel(state))
        verdicts.link_quality[netdev] = {state, kept.reason};
  for (const auto& [netdev, priority, direction] : saved.pfc_storms)
    verdicts.pfc.storms.insert(
        {netdev, priority, direction == "tx" ? PauseDirection::kTx : PauseDirection::kRx});
  for (const auto& [netdev, kept] : saved.pfc_driver_storms)
    verdicts.pfc.driver[netdev] = {kept.warning_events, kept.error_events};
  return verdicts;
}

void AddVerdicts(const EthtoolComponent::Verdicts& verdicts, PersistedIncidents& out) {
  for (const auto& [netdev, verdict] : verdicts.link_quality)
    out.link_quality[netdev] = {LinkQualityStateLabel(verdict.state),
                                verdict.reason.substr(0, kMaxKeptReason)};
  for (const PfcKey& key : verdicts.pfc.storms)
    out.pfc_storms.insert({key.netdev, key.priority, PauseDirectionLabel(key.direction)});
  for (const auto& [netdev, driver] : verdicts.pfc.driver)
    out.pfc_driver_storms[netdev] = {driver.warning_events_in_window,
                                     driver.error_events_in_window};
}

}  // namespace

double RoundBaseline(double bytes_per_second) {
  if (!(bytes_per_second > 0) || !std::isfinite(bytes_per_second)) return 0;
  const double step = std::pow(10.0, std::floor(std::log10(bytes_per_second)) - 1);
  return std::round(bytes_per_second / step) * step;
}

RestartStateComponent::RestartStateComponent(RestartStateSources sources,
                                             RestartStateOptions options)
    : drift_(sources.drift),
      netlink_(sources.netlink),
      traffic_(sources.traffic),
      lldp_(sources.lldp),
      ethtool_(sources.ethtool),
      options_(options) {
  drift_.SetIncidentSource(
      [this] { return ctx_ != nullptr ? Assemble(*ctx_) : PersistedIncidents{}; });
}

Status RestartStateComponent::Start(MonitorContext& ctx) {
  ctx_ = &ctx;
  GidDriftComponent::RestoredIncidents restored = drift_.TakeRestoredIncidents();
  if (!restored.restored) return Status::Ok();
  if (!restored.note.empty())
    spdlog::warn("state file: {}: open incidents start afresh", restored.note);
  age_seconds_ = ctx.clock().UnixSeconds() - restored.written_at_unix_seconds;
  // Rails before the first snapshot (the detector resumes them before it observes them); netdevs
  // once the first snapshot told the netlink component which netdevs are RNICs.
  RestoreRails(ctx, restored.incidents, age_seconds_);
  restored_since_ = restored.incidents.finding_since;
  ctx.RestoreFindingsSince(restored_since_);
  pending_netdevs_ = std::move(restored.incidents.netdevs);
  if (lldp_ != nullptr && !restored.incidents.far_ends.empty()) {
    std::map<std::string, LldpComponent::KeptFarEnd> far_ends;
    for (auto& [netdev, far_end] : restored.incidents.far_ends)
      far_ends[netdev] = {std::move(far_end.frame), ToMono(ctx.clock(), far_end.last_seen)};
    lldp_->RestoreFarEnds(std::move(far_ends));
  }
  if (ethtool_ != nullptr) {
    ethtool_->RestoreVerdicts(VerdictsOf(restored.incidents));
    std::set<std::string> optics;  // netdevs with an optics finding open before the restart
    for (const auto& [key, since] : restored_since_)
      if (key.first.rfind("optics_", 0) == 0) optics.insert(key.second);
    ethtool_->ReadModulesFirst(std::move(optics));
  }
  restoring_ = true;
  return Status::Ok();
}

void RestartStateComponent::RestoreNetdevs(MonitorContext& ctx) {
  std::map<std::string, NetdevIncidents> netdevs;
  for (const auto& [name, n] : pending_netdevs_) {
    NetdevIncidents& into = netdevs[name];
    for (const auto& [address, since] : n.missing_addresses)
      into.missing_addresses[address] = ToMono(ctx.clock(), since);
    into.policy.rules = n.expected_rules;
    into.policy.missing = n.missing_rules;
  }
  netdev_counts_ = netlink_.RestoreIncidents(ctx, netdevs).counts;
  pending_netdevs_.clear();
}

// Ports that are gone are dropped by the traffic component on the first snapshot.
void RestartStateComponent::RestoreRails(MonitorContext& ctx, const PersistedIncidents& saved,
                                         double age_seconds) {
  if (saved.rails.empty()) return;
  // A file from the future (the wall clock went back) is as untrustworthy as an old one.
  if (age_seconds > ToSeconds(options_.traffic_trust) || age_seconds < -60) {
    rails_not_trusted_ = saved.rails.size();
    spdlog::warn(
        "state file written {:.0f} s ago (trusted for traffic up to {:.0f} s): the traffic state "
        "of {} rails starts afresh",
        age_seconds, ToSeconds(options_.traffic_trust), saved.rails.size());
    return;
  }
  std::map<PortKey, PortTrafficResume> rails;
  for (const auto& [key, r] : saved.rails) {
    PortTrafficResume& into = rails[key];
    into.baseline = r.baseline;
    into.state = r.state;
    into.node_wide = r.node_wide;
    into.counters_at = ToMono(ctx.clock(), r.since);
  }
  traffic_.RestoreRails(rails);
}

void RestartStateComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  (void)snapshot;
  if (restoring_) {
    restoring_ = false;
    RestoreNetdevs(ctx);
    spdlog::info("state file written {:.0f} s ago: restored incidents: netdevs: {}; rails: {}{}",
                 age_seconds_, Counts(netdev_counts_), Counts(traffic_.restore_counts()),
                 rails_not_trusted_ > 0
                     ? "; " + std::to_string(rails_not_trusted_) + " rail states not trusted"
                     : "");
  }
  // The Monitor publishes after this: the first poll's findings carry the restored times from
  // the second snapshot on.
  if (++snapshots_ > 1) restored_since_.clear();
  drift_.Persist(ctx);
}

PersistedIncidents RestartStateComponent::Assemble(const MonitorContext& ctx) const {
  PersistedIncidents out;
  const Clock& clock = ctx.clock();
  for (const auto& [name, n] : netlink_.ExportIncidents()) {
    PersistedNetdevIncidents& into = out.netdevs[name];
    for (const auto& [address, since] : n.missing_addresses)
      into.missing_addresses[address] = std::round(ToUnix(clock, since));
    into.expected_rules = n.policy.rules;
    into.missing_rules = n.policy.missing;
  }
  for (const auto& [key, status] : traffic_.detector().ports()) {
    // Rails with nothing to resume (no baseline, not in trouble) are left out.
    const bool trouble =
        status.state == TrafficState::kCollapsed || status.state == TrafficState::kDegraded;
    if (!status.baseline && !trouble) continue;
    PersistedRailTraffic& into = out.rails[key];
    into.state = status.state;
    into.since = std::round(ToUnix(clock, status.state_since));
    if (status.baseline) into.baseline = RoundBaseline(*status.baseline);
    into.node_wide = status.node_wide;
    into.consumers = status.consumers;
  }
  if (lldp_ != nullptr)
    for (const auto& [netdev, far_end] : lldp_->ExportFarEnds())
      out.far_ends[netdev] = {far_end.frame, std::round(ToUnix(clock, far_end.last_seen))};
  if (ethtool_ != nullptr) AddVerdicts(ethtool_->ExportVerdicts(), out);
  out.finding_since = restored_since_;
  for (const auto& [key, since] : ctx.findings_since()) out.finding_since[key] = since;
  return out;
}

void RestartStateComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  out.Declare("rocewatch_restored_incidents",
              "Open incidents restored from the state file at start (same boot), by check and by "
              "what judging them against the live host found: checking (not judged yet: the "
              "restored state is shown meanwhile), confirmed (still open), healed (resolved, "
              "with an event) or dropped (its netdev or port is gone).",
              prometheus::MetricType::Gauge);
  std::map<std::pair<std::string, std::string>, size_t> counts = netdev_counts_;
  for (const auto& [key, n] : traffic_.restore_counts()) counts[key] += n;
  for (const char* check : {"ip_missing_after_flap", "policy_routing_missing", "traffic_collapsed",
                            "traffic_degraded"}) {
    for (const char* status : {"checking", "confirmed", "healed", "dropped"}) {
      auto it = counts.find({check, status});
      out.Gauge("rocewatch_restored_incidents", "", {{"check", check}, {"status", status}},
                it == counts.end() ? 0 : static_cast<double>(it->second));
    }
  }
}

}  // namespace rocewatch
