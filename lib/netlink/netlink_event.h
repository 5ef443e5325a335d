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

// A routing policy rule (RTM_NEWRULE / RTM_DELRULE). Compared on every field but `at`/`removed`.
struct PolicyRule {
  AddressFamily family = AddressFamily::kIpv4;
  std::string src;  // FRA_SRC, "" for any
  uint8_t src_len = 0;
  std::string dst;  // FRA_DST, "" for any
  uint8_t dst_len = 0;
  uint32_t table = 0;     // FRA_TABLE or the header's table
  uint32_t priority = 0;  // FRA_PRIORITY
  uint8_t action = 0;     // FR_ACT_*
  uint32_t fwmark = 0;    // FRA_FWMARK
  std::string iifname;    // FRA_IIFNAME
  std::string oifname;    // FRA_OIFNAME

  // "from 10.0.0.2/32 lookup 100 prio 1000" (iproute2-like).
  std::string ToString() const;
  auto operator<=>(const PolicyRule&) const = default;
};

// A route (RTM_NEWROUTE / RTM_DELROUTE), reduced to what identifies it. Multipath routes carry
// no oif and are kept with oif 0.
struct Route {
  AddressFamily family = AddressFamily::kIpv4;
  std::string dst;  // "" for the default route
  uint8_t dst_len = 0;
  uint32_t table = 0;
  int oif = 0;          // RTA_OIF ifindex
  std::string gateway;  // RTA_GATEWAY
  std::string prefsrc;  // RTA_PREFSRC
  uint32_t metric = 0;  // RTA_PRIORITY

  // "default via 10.0.0.1 dev#4 table 100" (with the ifindex: names are resolved by the tracker).
  std::string ToString() const;
  auto operator<=>(const Route&) const = default;
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
