#include "diagnose/routing_policy_rule.h"

#include <netlink/netlink.h>
#include <netlink/route/rule.h>
#include <sys/socket.h>

#include <memory>

namespace rocewatch {

std::string RoutingPolicyRule::ToString() const {
  std::string text = std::to_string(priority) + ": from " + (source.empty() ? "all" : source);
  if (!iif.empty()) text += " iif " + iif;
  if (!oif.empty()) text += " oif " + oif;
  return text + " lookup " + std::to_string(table);
}

namespace {

struct SocketFree {
  void operator()(nl_sock* sock) const { nl_socket_free(sock); }
};
struct CacheFree {
  void operator()(nl_cache* cache) const { nl_cache_free(cache); }
};

// "10.0.0.2/32"; empty for a missing or zero-length ("all") source.
std::string PrefixText(nl_addr* addr) {
  if (addr == nullptr || nl_addr_get_len(addr) == 0) return "";
  char text[INET6_ADDRSTRLEN + 8];
  nl_addr2str(addr, text, sizeof(text));
  std::string prefix = text;
  if (prefix.find('/') == std::string::npos)
    prefix += "/" + std::to_string(nl_addr_get_prefixlen(addr));
  return prefix;
}

}  // namespace

StatusOr<std::vector<RoutingPolicyRule>> NetlinkPolicyRuleSource::Dump() {
  std::unique_ptr<nl_sock, SocketFree> sock(nl_socket_alloc());
  if (!sock) return Status::Unavailable("rtnetlink: cannot allocate a socket");
  if (int err = nl_connect(sock.get(), NETLINK_ROUTE); err < 0)
    return Status::Unavailable(std::string("rtnetlink: ") + nl_geterror(err));
  nl_cache* raw = nullptr;
  if (int err = rtnl_rule_alloc_cache(sock.get(), AF_UNSPEC, &raw); err < 0)
    return Status::Unavailable(std::string("rtnetlink rule dump: ") + nl_geterror(err));
  std::unique_ptr<nl_cache, CacheFree> cache(raw);
  std::vector<RoutingPolicyRule> rules;
  for (nl_object* obj = nl_cache_get_first(cache.get()); obj != nullptr;
       obj = nl_cache_get_next(obj)) {
    auto* rule = reinterpret_cast<rtnl_rule*>(obj);
    int family = rtnl_rule_get_family(rule);
    if (family != AF_INET && family != AF_INET6) continue;
    RoutingPolicyRule r;
    r.family = family == AF_INET ? AddressFamily::kIpv4 : AddressFamily::kIpv6;
    r.source = PrefixText(rtnl_rule_get_src(rule));
    if (const char* iif = rtnl_rule_get_iif(rule)) r.iif = iif;
    if (const char* oif = rtnl_rule_get_oif(rule)) r.oif = oif;
    r.table = rtnl_rule_get_table(rule);
    r.priority = rtnl_rule_get_prio(rule);
    rules.push_back(std::move(r));
  }
  return rules;
}

}  // namespace rocewatch
