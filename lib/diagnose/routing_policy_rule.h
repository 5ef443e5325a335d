#pragma once
// One IP policy routing rule (`ip rule`): what multi-rail RoCE hosts use to route each rail
// (`ip rule add from <rail ip> table N`), and what systemd-networkd removed in the Datadog
// incident. A plain value; PolicyRuleSource dumps them.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/netdev.h"

namespace rocewatch {

struct RoutingPolicyRule {
  AddressFamily family = AddressFamily::kIpv4;
  std::string source;  // "from" prefix, "10.0.0.2/32"; empty for "from all"
  std::string iif;     // input interface, empty if none
  std::string oif;     // output interface, empty if none
  uint32_t table = 0;
  uint32_t priority = 0;

  std::string ToString() const;  // "32765: from 10.0.0.2/32 lookup 101"
  bool operator==(const RoutingPolicyRule&) const = default;
};

// Where the rules come from. Abstract so that diagnose can be tested with values; the real one
// dumps the rules of the current network namespace over rtnetlink (no capability needed).
class PolicyRuleSource {
 public:
  virtual ~PolicyRuleSource() = default;
  // Every IPv4 and IPv6 rule. Errors: Unavailable when rtnetlink cannot be reached.
  virtual StatusOr<std::vector<RoutingPolicyRule>> Dump() = 0;
};

// A one-shot RTM_GETRULE dump through libnl-route (rtnl_rule_alloc_cache).
class NetlinkPolicyRuleSource final : public PolicyRuleSource {
 public:
  StatusOr<std::vector<RoutingPolicyRule>> Dump() override;
};

}  // namespace rocewatch
