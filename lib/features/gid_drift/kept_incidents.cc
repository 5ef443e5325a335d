#include "gid_drift/kept_incidents.h"

#include "gid_drift/gid_drift_metric_names.h"

namespace rocewatch {
namespace {

std::string Counts(const RestoreCounts& counts) {
  std::string text;
  for (const auto& [key, n] : counts)
    if (n > 0)
      text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + key.first + " " + key.second;
  return text.empty() ? "none" : text;
}

}  // namespace

PersistedIncidents KeptIncidentsOf(const NodeStateView& state, StateParts kept) {
  PersistedIncidents out;
  if (kept.Has(StatePart::kNetdevIncidents))
    if (const KeptNetdevIncidents* netdevs = state.netdev_incidents())
      out.netdevs = netdevs->netdevs;
  if (kept.Has(StatePart::kRailIncidents))
    if (const KeptRailIncidents* rails = state.rail_incidents()) out.rails = rails->rails;
  if (kept.Has(StatePart::kFarEnds))
    if (const auto* far_ends = state.far_ends()) out.far_ends = *far_ends;
  if (kept.Has(StatePart::kLinkVerdicts)) {
    if (const PersistedLinkVerdicts* verdicts = state.link_verdicts()) {
      out.link_quality = verdicts->link_quality;
      out.pfc_storms = verdicts->pfc_storms;
      out.pfc_driver_storms = verdicts->pfc_driver_storms;
    }
  }
  if (kept.Has(StatePart::kSeenPorts))
    if (const KeptSeenPorts* seen = state.seen_ports()) out.seen_ports = seen->ports;
  return out;
}

std::string DescribeRestoreOutcome(const NodeStateView& state, StateParts kept) {
  const KeptNetdevIncidents* netdevs =
      kept.Has(StatePart::kNetdevIncidents) ? state.netdev_incidents() : nullptr;
  const KeptRailIncidents* rails =
      kept.Has(StatePart::kRailIncidents) ? state.rail_incidents() : nullptr;
  const KeptSeenPorts* seen = kept.Has(StatePart::kSeenPorts) ? state.seen_ports() : nullptr;
  std::string text = "netdevs: " + Counts(netdevs ? netdevs->restored : RestoreCounts{}) +
                     "; rails: " + Counts(rails ? rails->restored : RestoreCounts{});
  if (rails && rails->not_trusted > 0)
    text += "; " + std::to_string(rails->not_trusted) + " rail states not trusted";
  if (seen) text += "; devices: " + Counts(seen->restored);
  return text;
}

void AppendRestoredIncidentMetrics(const NodeStateView& state, StateParts kept,
                                   MetricFamilies& out) {
  out.Declare(kRestoredIncidentsMetric,
              "Open incidents restored from the state file at start (same boot), by check and by "
              "what judging them against the live host found: checking (not judged yet: the "
              "restored state is shown meanwhile), confirmed (still open), healed (resolved, "
              "with an event) or dropped (its netdev or port is gone).",
              prometheus::MetricType::Gauge);
  RestoreCounts counts;
  if (kept.Has(StatePart::kNetdevIncidents))
    if (const KeptNetdevIncidents* netdevs = state.netdev_incidents()) counts = netdevs->restored;
  if (kept.Has(StatePart::kRailIncidents))
    if (const KeptRailIncidents* rails = state.rail_incidents())
      for (const auto& [key, n] : rails->restored) counts[key] += n;
  if (kept.Has(StatePart::kSeenPorts))
    if (const KeptSeenPorts* seen = state.seen_ports())
      for (const auto& [key, n] : seen->restored) counts[key] += n;
  for (const char* check : {"ip_missing_after_flap", "policy_routing_missing", "traffic_collapsed",
                            "traffic_degraded", "device_disappeared"}) {
    for (const char* status : {"checking", "confirmed", "healed", "dropped"}) {
      auto it = counts.find({check, status});
      out.Gauge(kRestoredIncidentsMetric, "", {{"check", check}, {"status", status}},
                it == counts.end() ? 0 : static_cast<double>(it->second));
    }
  }
}

}  // namespace rocewatch
