#include "netlink/rtnetlink_message.h"

#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cstring>
#include <vector>

namespace rocewatch {
namespace {

constexpr int kMaxAttr = 128;  // above every IFLA_/IFA_/FRA_/RTA_ attribute we read

// The attributes of one message, indexed by type; unset entries are null.
struct Attributes {
  nlattr* tb[kMaxAttr + 1] = {};
  const nlattr* operator[](int type) const { return type <= kMaxAttr ? tb[type] : nullptr; }
};

std::optional<uint8_t> U8(const nlattr* a) {
  if (a == nullptr || nla_len(a) < 1) return std::nullopt;
  return *static_cast<const uint8_t*>(nla_data(a));
}

std::optional<uint32_t> U32(const nlattr* a) {
  if (a == nullptr || nla_len(a) < 4) return std::nullopt;
  uint32_t v;
  std::memcpy(&v, nla_data(a), sizeof v);
  return v;
}

// A string attribute: up to the first NUL within its payload.
std::string String(const nlattr* a) {
  if (a == nullptr || nla_len(a) <= 0) return "";
  const char* p = static_cast<const char*>(nla_data(a));
  return std::string(p, strnlen(p, static_cast<size_t>(nla_len(a))));
}

StatusOr<AddressFamily> FamilyOf(int af) {
  if (af == AF_INET) return AddressFamily::kIpv4;
  if (af == AF_INET6) return AddressFamily::kIpv6;
  return Status::NotFound("family");
}

// An address attribute of `family`, printed; "" when absent. Wrong lengths are malformed.
StatusOr<std::string> AddressText(const nlattr* a, AddressFamily family) {
  if (a == nullptr) return std::string();
  size_t want = family == AddressFamily::kIpv4 ? 4 : 16;
  if (static_cast<size_t>(nla_len(a)) != want)
    return Status::InvalidArgument("address attribute of " + std::to_string(nla_len(a)) + " bytes");
  char buf[INET6_ADDRSTRLEN];
  int af = family == AddressFamily::kIpv4 ? AF_INET : AF_INET6;
  if (inet_ntop(af, nla_data(a), buf, sizeof buf) == nullptr)
    return Status::InvalidArgument("unprintable address");
  return std::string(buf);
}

StatusOr<Attributes> ParseAttributes(nlmsghdr* nlh, int header_len) {
  Attributes attrs;
  int err = nlmsg_parse(nlh, header_len, attrs.tb, kMaxAttr, nullptr);
  if (err < 0)
    return Status::InvalidArgument("malformed rtnetlink message type " +
                                   std::to_string(nlh->nlmsg_type) + ": " + nl_geterror(err));
  return attrs;
}

StatusOr<std::optional<NetlinkMessage>> ParseLink(nlmsghdr* nlh, MonoTime at) {
  auto attrs = ParseAttributes(nlh, sizeof(ifinfomsg));
  if (!attrs.ok()) return attrs.status();
  const auto* ifi = static_cast<const ifinfomsg*>(nlmsg_data(nlh));
  LinkMessage link;
  link.at = at;
  link.removed = nlh->nlmsg_type == RTM_DELLINK;
  link.ifindex = ifi->ifi_index;
  link.flags = ifi->ifi_flags;
  link.name = String((*attrs)[IFLA_IFNAME]);
  if (auto op = U8((*attrs)[IFLA_OPERSTATE])) link.operstate = OperstateName(*op);
  if (auto c = U8((*attrs)[IFLA_CARRIER])) link.carrier = *c != 0;
  link.carrier_changes = U32((*attrs)[IFLA_CARRIER_CHANGES]);
  link.carrier_up_count = U32((*attrs)[IFLA_CARRIER_UP_COUNT]);
  link.carrier_down_count = U32((*attrs)[IFLA_CARRIER_DOWN_COUNT]);
  return std::optional<NetlinkMessage>(std::move(link));
}

StatusOr<std::optional<NetlinkMessage>> ParseAddress(nlmsghdr* nlh, MonoTime at) {
  auto attrs = ParseAttributes(nlh, sizeof(ifaddrmsg));
  if (!attrs.ok()) return attrs.status();
  const auto* ifa = static_cast<const ifaddrmsg*>(nlmsg_data(nlh));
  auto family = FamilyOf(ifa->ifa_family);
  if (!family.ok()) return std::optional<NetlinkMessage>();
  AddressMessage msg;
  msg.at = at;
  msg.removed = nlh->nlmsg_type == RTM_DELADDR;
  msg.ifindex = static_cast<int>(ifa->ifa_index);
  // IFA_LOCAL is the interface's own address; IFA_ADDRESS is the peer on point-to-point links.
  const nlattr* a = (*attrs)[IFA_LOCAL] ? (*attrs)[IFA_LOCAL] : (*attrs)[IFA_ADDRESS];
  auto text = AddressText(a, *family);
  if (!text.ok()) return text.status();
  if (text->empty()) return Status::InvalidArgument("address message without an address");
  msg.address.family = *family;
  msg.address.address = *text;
  msg.address.prefix_len = ifa->ifa_prefixlen;
  msg.address.link_local = ifa->ifa_scope == RT_SCOPE_LINK;
  return std::optional<NetlinkMessage>(std::move(msg));
}

StatusOr<std::optional<NetlinkMessage>> ParseRule(nlmsghdr* nlh, MonoTime at) {
  auto attrs = ParseAttributes(nlh, sizeof(fib_rule_hdr));
  if (!attrs.ok()) return attrs.status();
  const auto* frh = static_cast<const fib_rule_hdr*>(nlmsg_data(nlh));
  auto family = FamilyOf(frh->family);
  if (!family.ok()) return std::optional<NetlinkMessage>();
  RuleMessage msg;
  msg.at = at;
  msg.removed = nlh->nlmsg_type == RTM_DELRULE;
  PolicyRule& r = msg.rule;
  r.family = *family;
  auto src = AddressText((*attrs)[FRA_SRC], *family);
  auto dst = AddressText((*attrs)[FRA_DST], *family);
  if (!src.ok()) return src.status();
  if (!dst.ok()) return dst.status();
  r.src = *src;
  r.src_len = frh->src_len;
  r.dst = *dst;
  r.dst_len = frh->dst_len;
  r.table = U32((*attrs)[FRA_TABLE]).value_or(frh->table);
  r.priority = U32((*attrs)[FRA_PRIORITY]).value_or(0);
  r.action = frh->action;
  r.fwmark = U32((*attrs)[FRA_FWMARK]).value_or(0);
  r.iifname = String((*attrs)[FRA_IIFNAME]);
  r.oifname = String((*attrs)[FRA_OIFNAME]);
  return std::optional<NetlinkMessage>(std::move(msg));
}

StatusOr<std::optional<NetlinkMessage>> ParseRoute(nlmsghdr* nlh, MonoTime at) {
  auto attrs = ParseAttributes(nlh, sizeof(rtmsg));
  if (!attrs.ok()) return attrs.status();
  const auto* rtm = static_cast<const rtmsg*>(nlmsg_data(nlh));
  auto family = FamilyOf(rtm->rtm_family);
  if (!family.ok() || (rtm->rtm_flags & RTM_F_CLONED)) return std::optional<NetlinkMessage>();
  RouteMessage msg;
  msg.at = at;
  msg.removed = nlh->nlmsg_type == RTM_DELROUTE;
  Route& r = msg.route;
  r.family = *family;
  auto dst = AddressText((*attrs)[RTA_DST], *family);
  auto gateway = AddressText((*attrs)[RTA_GATEWAY], *family);
  auto prefsrc = AddressText((*attrs)[RTA_PREFSRC], *family);
  for (const Status& s : {dst.status(), gateway.status(), prefsrc.status()})
    if (!s.ok()) return s;
  r.dst = *dst;
  r.dst_len = rtm->rtm_dst_len;
  r.table = U32((*attrs)[RTA_TABLE]).value_or(rtm->rtm_table);
  r.oif = static_cast<int>(U32((*attrs)[RTA_OIF]).value_or(0));
  r.gateway = *gateway;
  r.prefsrc = *prefsrc;
  r.metric = U32((*attrs)[RTA_PRIORITY]).value_or(0);
  return std::optional<NetlinkMessage>(std::move(msg));
}

}  // namespace

std::string OperstateName(unsigned value) {
  static constexpr const char* kNames[] = {"UNKNOWN", "NOTPRESENT", "DOWN", "LOWERLAYERDOWN",
                                           "TESTING", "DORMANT",    "UP"};
  if (value < std::size(kNames)) return kNames[value];
  return std::to_string(value);
}

StatusOr<std::optional<NetlinkMessage>> ParseRtnetlinkMessage(const void* data, size_t size,
                                                              MonoTime at) {
  if (data == nullptr || size < sizeof(nlmsghdr))
    return Status::InvalidArgument("rtnetlink message shorter than its header");
  nlmsghdr header;
  std::memcpy(&header, data, sizeof header);
  if (header.nlmsg_len < sizeof(nlmsghdr) || header.nlmsg_len > size)
    return Status::InvalidArgument("rtnetlink message length " + std::to_string(header.nlmsg_len) +
                                   " outside 16.." + std::to_string(size));
  // An aligned private copy: libnl's parser wants a mutable, 4-byte aligned header.
  std::vector<uint32_t> aligned((header.nlmsg_len + 3) / 4);
  std::memcpy(aligned.data(), data, header.nlmsg_len);
  auto* nlh = reinterpret_cast<nlmsghdr*>(aligned.data());
  switch (nlh->nlmsg_type) {
    case RTM_NEWLINK:
    case RTM_DELLINK:
      return ParseLink(nlh, at);
    case RTM_NEWADDR:
    case RTM_DELADDR:
      return ParseAddress(nlh, at);
    case RTM_NEWRULE:
    case RTM_DELRULE:
      return ParseRule(nlh, at);
    case RTM_NEWROUTE:
    case RTM_DELROUTE:
      return ParseRoute(nlh, at);
    default:
      return std::optional<NetlinkMessage>();
  }
}

}  // namespace rocewatch
