#pragma once
// What rtnetlink tells us, as plain values: one struct per object kind (link, address, policy
// rule, route), each stamped with the monotonic time at which it was read. Produced by
// ParseRtnetlinkMessage (netlink/rtnetlink_message.h) from both multicast events and dumps.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/clock.h"
#include "model/netdev.h"
#include "model/policy_rule.h"
#include "model/route.h"

namespace rocewatch {

// RTM_NEWLINK / RTM_DELLINK.
struct LinkMessage {
  MonoTime at{};
  bool removed = false;  // RTM_DELLINK
  int ifindex = 0;
  std::string name;                          // IFLA_IFNAME
  uint32_t flags = 0;                        // ifi_flags: IFF_UP, IFF_RUNNING, IFF_LOWER_UP, ...
  std::string operstate;                     // IFLA_OPERSTATE as "UP", "DOWN", ... ("" when absent)
  std::optional<bool> carrier;               // IFLA_CARRIER
  std::optional<uint32_t> carrier_changes;   // IFLA_CARRIER_CHANGES
  std::optional<uint32_t> carrier_up_count;  // IFLA_CARRIER_UP_COUNT (Linux 4.16+)
  std::optional<uint32_t> carrier_down_count;  // IFLA_CARRIER_DOWN_COUNT (Linux 4.16+)

  bool admin_up() const;
  // IFLA_CARRIER when present, IFF_LOWER_UP otherwise.
  bool has_carrier() const;
};

// RTM_NEWADDR / RTM_DELADDR.
struct AddressMessage {
  MonoTime at{};
  bool removed = false;
  int ifindex = 0;
  IpAddress address;
};

struct RuleMessage {
  MonoTime at{};
  bool removed = false;
  PolicyRule rule;
};

struct RouteMessage {
  MonoTime at{};
  bool removed = false;
  Route route;
};

using NetlinkMessage = std::variant<LinkMessage, AddressMessage, RuleMessage, RouteMessage>;

// The time a message was read.
MonoTime MessageTime(const NetlinkMessage& message);

// A full dump of the namespace's links, addresses, rules and routes (all "new" messages).
struct NetlinkDump {
  MonoTime at{};
  std::vector<LinkMessage> links;
  std::vector<AddressMessage> addresses;
  std::vector<RuleMessage> rules;
  std::vector<RouteMessage> routes;
};

}  // namespace rocewatch
