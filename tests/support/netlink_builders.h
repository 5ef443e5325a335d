#pragma once
// Builders of NetlinkMessage values for tests: a link with or without carrier, an address, a rule,
// a route, and a dump made of them. Each builder states only what a test varies.

#include <string>

#include "netlink/netlink_event.h"

namespace rocewatch {

// A present link, admin up; carrier sets IFF_RUNNING/IFF_LOWER_UP, IFLA_CARRIER and operstate.
LinkMessage MakeLink(int ifindex, const std::string& name, bool carrier,
                     uint32_t carrier_changes = 0, MonoTime at = {});
LinkMessage MakeLinkRemoved(int ifindex, const std::string& name, MonoTime at = {});

// "10.0.0.2/24" or "fd00::2/64"; the family follows from the text. fe80:: is link-local.
IpAddress MakeIp(const std::string& cidr);
AddressMessage MakeAddress(int ifindex, const std::string& cidr, bool removed = false,
                           MonoTime at = {});

// `from <src>/<len> lookup <table> prio <priority>`.
PolicyRule MakeRule(const std::string& src_cidr, uint32_t table, uint32_t priority);
RuleMessage MakeRuleMessage(const PolicyRule& rule, bool removed = false, MonoTime at = {});

// `<dst>/<len> dev <oif> table <table>` ("default" for 0.0.0.0/0).
Route MakeRoute(const std::string& dst_cidr, int oif, uint32_t table);
RouteMessage MakeRouteMessage(const Route& route, bool removed = false, MonoTime at = {});

}  // namespace rocewatch
