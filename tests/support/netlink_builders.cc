#include "support/netlink_builders.h"

#include <linux/if.h>

namespace rocewatch {
namespace {

std::pair<std::string, uint8_t> SplitCidr(const std::string& cidr) {
  auto slash = cidr.find('/');
  if (slash == std::string::npos) return {cidr, cidr.find(':') == std::string::npos ? 32 : 128};
  return {cidr.substr(0, slash), static_cast<uint8_t>(std::stoi(cidr.substr(slash + 1)))};
}

AddressFamily FamilyOfText(const std::string& text) {
  return text.find(':') == std::string::npos ? AddressFamily::kIpv4 : AddressFamily::kIpv6;
}

}  // namespace

LinkMessage MakeLink(int ifindex, const std::string& name, bool carrier, uint32_t carrier_changes,
                     MonoTime at) {
  LinkMessage m;
  m.at = at;
  m.ifindex = ifindex;
  m.name = name;
  m.flags = IFF_UP | IFF_BROADCAST | IFF_MULTICAST | (carrier ? IFF_RUNNING | IFF_LOWER_UP : 0);
  m.carrier = carrier;
  m.operstate = carrier ? "UP" : "LOWERLAYERDOWN";
  if (carrier_changes != 0) m.carrier_changes = carrier_changes;
  return m;
}

LinkMessage MakeLinkRemoved(int ifindex, const std::string& name, MonoTime at) {
  LinkMessage m = MakeLink(ifindex, name, false, 0, at);
  m.removed = true;
  return m;
}

IpAddress MakeIp(const std::string& cidr) {
  auto [text, len] = SplitCidr(cidr);
  IpAddress a;
  a.family = FamilyOfText(text);
  a.address = text;
  a.prefix_len = len;
  a.link_local = text.rfind("fe80:", 0) == 0;
  return a;
}

AddressMessage MakeAddress(int ifindex, const std::string& cidr, bool removed, MonoTime at) {
  AddressMessage m;
  m.at = at;
  m.removed = removed;
  m.ifindex = ifindex;
  m.address = MakeIp(cidr);
  return m;
}

PolicyRule MakeRule(const std::string& src_cidr, uint32_t table, uint32_t priority) {
  auto [text, len] = SplitCidr(src_cidr);
  PolicyRule r;
  r.family = FamilyOfText(text);
  r.src = text;
  r.src_len = len;
  r.table = table;
  r.priority = priority;
  r.action = 1;  // FR_ACT_TO_TBL
  return r;
}

RuleMessage MakeRuleMessage(const PolicyRule& rule, bool removed, MonoTime at) {
  return RuleMessage{at, removed, rule};
}

Route MakeRoute(const std::string& dst_cidr, int oif, uint32_t table) {
  auto [text, len] = SplitCidr(dst_cidr);
  Route r;
  r.family = FamilyOfText(text);
  if (len != 0) r.dst = text;
  r.dst_len = len;
  r.oif = oif;
  r.table = table;
  return r;
}

RouteMessage MakeRouteMessage(const Route& route, bool removed, MonoTime at) {
  return RouteMessage{at, removed, route};
}

}  // namespace rocewatch
