#pragma once
// Policy routing of RNIC addresses that vanishes while the address stays (the systemd-networkd
// incident: a restart wiped every rule it did not own). Multi-rail RoCE hosts route each RNIC's
// traffic by `ip rule from <rnic ip> lookup <table>` and a route via the RNIC in that table.
//
// Rules:
//  - a rule is tied to an RNIC address when its source prefix contains the address; a route is
//    tied to it when it leaves through the RNIC netdev in a table a tied rule looks up (other than
//    main, local and default);
//  - every tied rule and route seen is expected from then on (also after its address went and
//    came back: a manager that re-adds the address must re-add its routing too);
//  - one is missing when it is absent while its address has been present, and the carrier up, for
//    at least `settle` (a manager re-adding an address adds its rules just after).
// Pure: the current view and the time in. Not thread-safe.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"
#include "model/netdev.h"
#include "model/policy_rule.h"
#include "model/route.h"

namespace rocewatch {

struct PolicyRoutingConfig {
  Duration settle = std::chrono::seconds(5);
};

// What the detector looks at: the RNIC netdevs, all rules and the routes of each RNIC netdev.
struct RoutingView {
  std::map<std::string, NetdevState> netdevs;
  std::set<PolicyRule> rules;
  std::map<std::string, std::vector<Route>> routes;  // by netdev
};

class PolicyRoutingDetector {
 public:
  struct NetdevPolicy {
    std::map<IpAddress, MonoTime> present_since;  // non-link-local addresses
    std::optional<MonoTime> carrier_up_since;
    std::map<IpAddress, std::set<PolicyRule>> expected_rules;
    std::set<Route> expected_routes;
    std::map<PolicyRule, IpAddress> missing_rules;  // -> the address it serves
    std::set<Route> missing_routes;
  };

  explicit PolicyRoutingDetector(PolicyRoutingConfig config = {}) : config_(config) {}

  // Compares `view` at `now` with what was seen before.
  void Evaluate(const RoutingView& view, MonoTime now);
  // The first time after `now` at which an address or carrier settles, so that Evaluate may find
  // something missing; nullopt when none is ahead.
  std::optional<MonoTime> NextDeadline(MonoTime now) const;

  const NetdevPolicy* Find(const std::string& netdev) const;
  const std::map<std::string, NetdevPolicy>& netdevs() const { return netdevs_; }

  // policy_routing_missing (critical), one per netdev.
  void AppendFindings(std::vector<Finding>& out) const;

  // What a netdev's policy routing must be judged against by another detector (a restarted
  // daemon's): the rules each of its addresses had, and those missing now. Routes are not part
  // of it (their RTA_OIF is an ifindex; they are learned again from the live tables).
  struct Expected {
    std::map<IpAddress, std::set<PolicyRule>> rules;
    std::set<PolicyRule> missing;
    auto operator<=>(const Expected&) const = default;
  };
  std::map<std::string, Expected> ExportExpected() const;
  // Takes the rules another detector expected of `netdev` as expected here too, and its
  // addresses and carrier as settled since `settled_at` (they were, before the restart): the
  // next Evaluate finds a rule still absent missing at once. Returns false (nothing restored)
  // for a netdev the last Evaluate did not see. REQUIRES: an Evaluate before (the live view).
  bool RestoreExpected(const std::string& netdev, const Expected& expected, MonoTime settled_at);

 private:
  PolicyRoutingConfig config_;
  std::map<std::string, NetdevPolicy> netdevs_;
};

}  // namespace rocewatch
