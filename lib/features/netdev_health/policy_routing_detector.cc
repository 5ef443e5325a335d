#include "netdev_health/policy_routing_detector.h"

#include <linux/rtnetlink.h>

#include <algorithm>

#include "model/check_policy.h"

namespace rocewatch {
namespace {

bool IsPolicyTable(uint32_t table) {
  return table != RT_TABLE_MAIN && table != RT_TABLE_LOCAL && table != RT_TABLE_DEFAULT &&
         table != RT_TABLE_UNSPEC;
}

}  // namespace

void PolicyRoutingDetector::Evaluate(const RoutingView& view, MonoTime now) {
  std::erase_if(netdevs_, [&](const auto& entry) { return view.netdevs.count(entry.first) == 0; });
  for (const auto& [name, state] : view.netdevs) {
    NetdevPolicy& p = netdevs_[name];
    if (!state.carrier) {
      p.carrier_up_since.reset();
    } else if (!p.carrier_up_since) {
      p.carrier_up_since = now;
    }
    // The addresses come sorted, as the map is: one merge walk in place, linear in the address
    // count and allocating only for new addresses (a storm of 25,000 addresses on one netdev is
    // evaluated once per netlink read).
    auto known = p.present_since.begin();
    for (const IpAddress& a : state.addresses) {
      if (a.link_local) continue;
      while (known != p.present_since.end() && known->first < a)
        known = p.present_since.erase(known);
      if (known != p.present_since.end() && known->first == a) {
        ++known;
      } else {
        p.present_since.emplace_hint(known, a, now);
      }
    }
    p.present_since.erase(known, p.present_since.end());

    const std::vector<Route>* routes = nullptr;
    if (auto r = view.routes.find(name); r != view.routes.end()) routes = &r->second;
    std::set<Route> current_routes;
    if (routes != nullptr) current_routes.insert(routes->begin(), routes->end());

    p.missing_rules.clear();
    p.missing_routes.clear();
    bool carrier_settled = p.carrier_up_since && now - *p.carrier_up_since >= config_.settle;
    std::set<uint32_t> settled_tables;
    for (const auto& [address, since] : p.present_since) {
      // Only addresses that a rule ever covered have an entry: the others expect nothing.
      auto entry = p.expected_rules.find(address);
      for (const PolicyRule& rule : view.rules) {
        if (!RuleCoversAddress(rule, address)) continue;
        if (entry == p.expected_rules.end()) entry = p.expected_rules.try_emplace(address).first;
        entry->second.insert(rule);
      }
      if (entry == p.expected_rules.end()) continue;
      const std::set<PolicyRule>& expected = entry->second;
      bool settled = carrier_settled && now - since >= config_.settle;
      for (const PolicyRule& rule : expected) {
        if (settled && view.rules.count(rule) == 0) p.missing_rules.emplace(rule, address);
        if (settled && IsPolicyTable(rule.table)) settled_tables.insert(rule.table);
      }
      for (const Route& route : current_routes) {
        for (const PolicyRule& rule : expected)
          if (rule.table == route.table && IsPolicyTable(route.table))
            p.expected_routes.insert(route);
      }
    }
    for (const Route& route : p.expected_routes)
      if (settled_tables.count(route.table) != 0 && current_routes.count(route) == 0)
        p.missing_routes.insert(route);
  }
}

std::optional<MonoTime> PolicyRoutingDetector::NextDeadline(MonoTime now) const {
  std::optional<MonoTime> next;
  auto consider = [&](MonoTime t) {
    if (t > now && (!next || t < *next)) next = t;
  };
  for (const auto& [name, p] : netdevs_) {
    if (p.expected_rules.empty()) continue;
    if (p.carrier_up_since) consider(*p.carrier_up_since + config_.settle);
    // Only an address that a rule covers can have something missing once it settles.
    for (const auto& [address, rules] : p.expected_rules) {
      if (rules.empty()) continue;
      if (auto present = p.present_since.find(address); present != p.present_since.end())
        consider(present->second + config_.settle);
    }
  }
  return next;
}

const PolicyRoutingDetector::NetdevPolicy* PolicyRoutingDetector::Find(
    const std::string& netdev) const {
  auto it = netdevs_.find(netdev);
  return it == netdevs_.end() ? nullptr : &it->second;
}

std::map<std::string, PolicyRoutingDetector::Expected> PolicyRoutingDetector::ExportExpected()
    const {
  std::map<std::string, Expected> out;
  for (const auto& [name, p] : netdevs_) {
    Expected e;
    for (const auto& [address, rules] : p.expected_rules)
      if (!rules.empty()) e.rules.emplace(address, rules);
    for (const auto& [rule, address] : p.missing_rules) e.missing.insert(rule);
    if (!e.rules.empty()) out.emplace(name, std::move(e));
  }
  return out;
}

bool PolicyRoutingDetector::RestoreExpected(const std::string& netdev, const Expected& expected,
                                            MonoTime settled_at) {
  auto it = netdevs_.find(netdev);
  if (it == netdevs_.end()) return false;
  NetdevPolicy& p = it->second;
  for (const auto& [address, rules] : expected.rules) {
    if (address.link_local) continue;
    p.expected_rules[address].insert(rules.begin(), rules.end());
    if (auto present = p.present_since.find(address); present != p.present_since.end())
      present->second = std::min(present->second, settled_at);
  }
  if (p.carrier_up_since) p.carrier_up_since = std::min(*p.carrier_up_since, settled_at);
  return true;
}

void PolicyRoutingDetector::AppendFindings(std::vector<Finding>& out) const {
  for (const auto& [name, p] : netdevs_) {
    if (p.missing_rules.empty() && p.missing_routes.empty()) continue;
    std::string what;
    for (const auto& [rule, address] : p.missing_rules)
      what += (what.empty() ? "" : "; ") + std::string("rule '") + rule.ToString() + "' for " +
              address.address;
    for (const Route& route : p.missing_routes)
      what += (what.empty() ? "" : "; ") + std::string("route '") + route.ToString() + "'";
    out.push_back({SeverityOf("policy_routing_missing"), "policy_routing_missing", name,
                   name + " keeps its address but lost its policy routing: " + what +
                       ". Traffic from this RNIC's address now follows the main table (wrong "
                       "rail or no route).",
                   "Restore the rules and routes from the interface configuration (e.g. "
                   "`networkctl reload`, `nmcli connection up`, or `ip rule add` / `ip route "
                   "add ... table N`); if systemd-networkd does not own them, set "
                   "ManageForeignRoutingPolicyRules=no in networkd.conf."});
  }
}

}  // namespace rocewatch
