#include "netdev_health/netdev_health.h"

#include "core/duration.h"

namespace rocewatch {

void NetdevHealth::OnChanges(const std::vector<NetdevChange>& changes,
                             std::vector<NetdevNarration>* narration) {
  for (const NetdevChange& change : changes) OnChange(change, narration);
}

void NetdevHealth::OnChange(const NetdevChange& c, std::vector<NetdevNarration>* narration) {
  auto tell = [&](std::string text, Severity severity = Severity::kInfo, bool routine = false) {
    if (narration != nullptr)
      narration->push_back({c.at, c.netdev, std::move(text), severity, routine});
  };
  const NetdevState& s = c.state;
  switch (c.kind) {
    case NetdevChange::Kind::kAppeared:
      flaps_.Forget(c.netdev);
      flaps_.Observe(c.netdev, s.carrier, s.carrier_changes, c.at);
      ip_loss_.Reset(c.netdev, s.carrier, s.addresses, c.at);
      tell(std::string("watching (carrier ") + (s.carrier ? "up" : "down") + ", " +
           std::to_string(s.addresses.size()) + " address(es))");
      return;
    case NetdevChange::Kind::kVanished:
      flaps_.Forget(c.netdev);
      ip_loss_.Forget(c.netdev);
      tell("gone (deleted or renamed)", Severity::kWarning);
      return;
    case NetdevChange::Kind::kLink: {
      const LinkFlapDetector::NetdevFlaps* before = flaps_.Find(c.netdev);
      bool had_carrier = before != nullptr && before->carrier;
      int completed = flaps_.Observe(c.netdev, s.carrier, s.carrier_changes, c.at);
      bool transition = s.carrier != had_carrier;
      if (transition) ip_loss_.OnCarrier(c.netdev, s.carrier, c.at);
      // An observed flap counts when the carrier goes down; the rest were inferred.
      int inferred = completed - (transition && !s.carrier ? 1 : 0);
      if (inferred > 0) ip_loss_.OnInferredFlap(c.netdev, c.at);
      const LinkFlapDetector::NetdevFlaps* after = flaps_.Find(c.netdev);
      if (transition && !s.carrier)
        tell("carrier down (operstate " + s.operstate + ")", Severity::kWarning);
      if (transition && s.carrier) {
        std::string took;
        if (after != nullptr && after->last_duration)
          took = " after " + FormatDuration(std::chrono::duration_cast<std::chrono::milliseconds>(
                                 *after->last_duration));
        tell("carrier up" + took + " (flap " +
                 std::to_string(after != nullptr ? after->flaps_total : 0) + ")",
             Severity::kWarning);
      }
      if (inferred > 0)
        tell(std::to_string(inferred) +
                 " flap(s) not seen as events, counted from the kernel's carrier_changes (now " +
                 std::to_string(s.carrier_changes) + ")",
             Severity::kWarning);
      if (!transition && inferred == 0)
        tell(std::string("link flags changed: admin ") + (s.admin_up ? "up" : "down") +
             ", operstate " + s.operstate);
      return;
    }
    case NetdevChange::Kind::kAddressRemoved: {
      const IpLossDetector::NetdevIps* n = ip_loss_.Find(c.netdev);
      uint64_t lost_before = n != nullptr ? n->ip_lost_total : 0;
      ip_loss_.OnAddressRemoved(c.netdev, c.address, c.at);
      n = ip_loss_.Find(c.netdev);
      bool lost = n != nullptr && n->ip_lost_total > lost_before;
      tell("address " + c.address.ToString() + " removed" + (lost ? " (lost during a flap)" : ""),
           lost ? Severity::kWarning : Severity::kInfo, !lost);
      return;
    }
    case NetdevChange::Kind::kAddressAdded:
      ip_loss_.OnAddressAdded(c.netdev, c.address, c.at);
      tell("address " + c.address.ToString() + " added", Severity::kInfo, true);
      return;
    case NetdevChange::Kind::kRouting:
      return;  // compared as a whole in Evaluate
  }
}

void NetdevHealth::Evaluate(const RoutingView& view, MonoTime now) {
  ip_loss_.Evaluate(now);
  policy_.Evaluate(view, now);
}

std::optional<MonoTime> NetdevHealth::NextDeadline(MonoTime now) const {
  std::optional<MonoTime> a = ip_loss_.NextDeadline();
  std::optional<MonoTime> b = policy_.NextDeadline(now);
  if (a && *a <= now) a = now;
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

void NetdevHealth::AppendFindings(MonoTime now, std::vector<Finding>& out) const {
  flaps_.AppendFindings(now, out);
  ip_loss_.AppendFindings(now, out);
  policy_.AppendFindings(out);
}

std::map<std::string, NetdevIncidents> NetdevHealth::ExportIncidents() const {
  std::map<std::string, NetdevIncidents> out;
  for (auto& [netdev, missing] : ip_loss_.ExportMissing()) out[netdev].missing_addresses = missing;
  for (auto& [netdev, expected] : policy_.ExportExpected()) out[netdev].policy = expected;
  return out;
}

NetdevRestoreOutcome NetdevHealth::RestoreIncidents(
    const std::map<std::string, NetdevIncidents>& saved, const RoutingView& view, MonoTime now) {
  constexpr const char* kIp = "ip_missing_after_flap";
  constexpr const char* kPolicy = "policy_routing_missing";
  NetdevRestoreOutcome outcome;
  auto tell = [&](const std::string& netdev, std::string text) {
    outcome.narration.push_back({now, netdev, std::move(text), Severity::kInfo, false});
  };
  for (const auto& [netdev, incidents] : saved) {
    for (const auto& [address, since] : incidents.missing_addresses) {
      switch (ip_loss_.RestoreMissing(netdev, address, since)) {
        case IpLossDetector::RestoreVerdict::kStillMissing:
          ++outcome.counts[{kIp, "confirmed"}];
          break;
        case IpLossDetector::RestoreVerdict::kBack:
          ++outcome.counts[{kIp, "healed"}];
          tell(netdev,
               address.ToString() +
                   " is back (it was missing after a flap when rocewatch stopped): resolved");
          break;
        case IpLossDetector::RestoreVerdict::kNetdevGone:
          ++outcome.counts[{kIp, "dropped"}];
          tell(netdev, "not an RNIC netdev now: its restored missing address " +
                           address.ToString() + " is dropped");
          break;
      }
    }
    if (incidents.policy.rules.empty()) continue;
    // Addresses and carrier seen before the restart count as settled: a rule still absent is
    // missing at once, not after a new settle time.
    if (!policy_.RestoreExpected(netdev, incidents.policy, now - config_.policy.settle)) {
      outcome.counts[{kPolicy, "dropped"}] += incidents.policy.missing.size();
      tell(netdev, "not an RNIC netdev now: its restored policy rules are dropped");
    }
  }
  policy_.Evaluate(view, now);
  for (const auto& [netdev, incidents] : saved) {
    const PolicyRoutingDetector::NetdevPolicy* live = policy_.Find(netdev);
    if (live == nullptr) continue;
    for (const PolicyRule& rule : incidents.policy.missing) {
      if (live->missing_rules.count(rule) != 0) {
        ++outcome.counts[{kPolicy, "confirmed"}];
        continue;
      }
      ++outcome.counts[{kPolicy, "healed"}];
      tell(netdev, "policy rule '" + rule.ToString() +
                       "' is back or no longer expected (it was missing when rocewatch stopped): "
                       "resolved");
    }
  }
  return outcome;
}

}  // namespace rocewatch
