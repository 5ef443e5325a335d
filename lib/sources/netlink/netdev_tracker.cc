#include "netlink/netdev_tracker.h"

#include <linux/if.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <iterator>

namespace rocewatch {
namespace {

NetdevChange RoutingChange(MonoTime at) {
  NetdevChange c;
  c.kind = NetdevChange::Kind::kRouting;
  c.at = at;
  return c;
}

}  // namespace

void ApplyLinkFields(const LinkMessage& m, NetdevState& state) {
  state.ifindex = m.ifindex;
  if (!m.name.empty()) state.name = m.name;
  state.admin_up = (m.flags & IFF_UP) != 0;
  state.running = (m.flags & IFF_RUNNING) != 0;
  state.lower_up = (m.flags & IFF_LOWER_UP) != 0;
  state.carrier = m.has_carrier();
  if (!m.operstate.empty()) state.operstate = m.operstate;
  if (m.carrier_changes) state.carrier_changes = *m.carrier_changes;
  if (m.carrier_up_count) state.carrier_up_count = *m.carrier_up_count;
  if (m.carrier_down_count) state.carrier_down_count = *m.carrier_down_count;
}

NetdevState NetdevTracker::StateOf(const Link& link) {
  NetdevState state = link.fields;
  state.addresses.assign(link.addresses.begin(), link.addresses.end());  // sorted, as promised
  return state;
}

NetdevChange NetdevTracker::Change(NetdevChange::Kind kind, MonoTime at, const Link& link,
                                   IpAddress address) {
  NetdevChange c;
  c.kind = kind;
  c.at = at;
  c.netdev = link.fields.name;
  c.state = kind == NetdevChange::Kind::kAppeared ? StateOf(link) : link.fields;
  c.address = std::move(address);
  return c;
}

void NetdevTracker::SetRnicNetdevs(std::set<std::string> names, MonoTime at,
                                   std::vector<NetdevChange>& out) {
  for (const auto& [name, ifindex] : ifindex_by_name_) {
    bool was = rnic_.count(name) != 0, is = names.count(name) != 0;
    if (was == is) continue;
    out.push_back(Change(is ? NetdevChange::Kind::kAppeared : NetdevChange::Kind::kVanished, at,
                         links_.at(ifindex)));
  }
  rnic_ = std::move(names);
}

bool NetdevTracker::IsRnicIfindex(int ifindex) const {
  auto it = links_.find(ifindex);
  return it != links_.end() && IsRnic(it->second.fields.name);
}

void NetdevTracker::Apply(const NetlinkMessage& message, std::vector<NetdevChange>& out) {
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, LinkMessage>) ApplyLink(m, out);
        if constexpr (std::is_same_v<T, AddressMessage>) ApplyAddress(m, out);
        if constexpr (std::is_same_v<T, RuleMessage>) ApplyRule(m, out);
        if constexpr (std::is_same_v<T, RouteMessage>) ApplyRoute(m, out);
      },
      message);
}

void NetdevTracker::ApplyLink(const LinkMessage& m, std::vector<NetdevChange>& out) {
  auto it = links_.find(m.ifindex);
  if (m.removed) {
    if (it == links_.end()) return;
    const NetdevState& gone = it->second.fields;
    if (IsRnic(gone.name)) out.push_back(Change(NetdevChange::Kind::kVanished, m.at, it->second));
    auto by_name = ifindex_by_name_.find(gone.name);
    if (by_name != ifindex_by_name_.end() && by_name->second == m.ifindex)
      ifindex_by_name_.erase(by_name);
    std::erase_if(routes_, [&](const Route& r) { return r.oif == m.ifindex; });
    links_.erase(it);
    return;
  }
  if (it == links_.end()) {
    Link link;
    ApplyLinkFields(m, link.fields);
    if (link.fields.name.empty()) return;  // a link we cannot name yet; its next message will do
    ifindex_by_name_[link.fields.name] = m.ifindex;
    const Link& stored = links_[m.ifindex] = std::move(link);
    if (IsRnic(stored.fields.name))
      out.push_back(Change(NetdevChange::Kind::kAppeared, m.at, stored));
    return;
  }
  NetdevState& state = it->second.fields;
  if (!m.name.empty() && m.name != state.name) {  // renamed
    if (IsRnic(state.name)) out.push_back(Change(NetdevChange::Kind::kVanished, m.at, it->second));
    auto by_name = ifindex_by_name_.find(state.name);
    if (by_name != ifindex_by_name_.end() && by_name->second == m.ifindex)
      ifindex_by_name_.erase(by_name);
    ApplyLinkFields(m, state);
    ifindex_by_name_[state.name] = m.ifindex;
    if (IsRnic(state.name)) out.push_back(Change(NetdevChange::Kind::kAppeared, m.at, it->second));
    return;
  }
  NetdevState before = state;
  ApplyLinkFields(m, state);
  if (IsRnic(state.name) && before != state)
    out.push_back(Change(NetdevChange::Kind::kLink, m.at, it->second));
}

void NetdevTracker::ApplyAddress(const AddressMessage& m, std::vector<NetdevChange>& out) {
  auto it = links_.find(m.ifindex);
  if (it == links_.end()) return;  // an address of a link we have not seen (yet)
  Link& link = it->second;
  if (m.removed) {
    if (link.addresses.erase(m.address) == 0) return;
  } else if (!link.addresses.insert(m.address).second) {
    return;  // a flags update (e.g. DAD finished)
  }
  if (IsRnic(link.fields.name))
    out.push_back(
        Change(m.removed ? NetdevChange::Kind::kAddressRemoved : NetdevChange::Kind::kAddressAdded,
               m.at, link, m.address));
}

void NetdevTracker::ApplyRule(const RuleMessage& m, std::vector<NetdevChange>& out) {
  bool changed = m.removed ? rules_.erase(m.rule) != 0 : rules_.insert(m.rule).second;
  if (changed) out.push_back(RoutingChange(m.at));
}

void NetdevTracker::ApplyRoute(const RouteMessage& m, std::vector<NetdevChange>& out) {
  if (m.route.table == RT_TABLE_LOCAL) return;
  bool changed = false;
  if (m.removed) {
    changed = routes_.erase(m.route) != 0;
  } else if (IsRnicIfindex(m.route.oif)) {
    changed = routes_.insert(m.route).second;
  }
  if (changed) out.push_back(RoutingChange(m.at));
}

void NetdevTracker::Resync(const NetlinkDump& dump, std::vector<NetdevChange>& out) {
  NetdevTracker fresh(rnic_);
  std::vector<NetdevChange> ignored;
  for (const LinkMessage& m : dump.links) fresh.ApplyLink(m, ignored);
  for (const AddressMessage& m : dump.addresses) fresh.ApplyAddress(m, ignored);
  for (const RuleMessage& m : dump.rules) fresh.ApplyRule(m, ignored);
  for (const RouteMessage& m : dump.routes) fresh.ApplyRoute(m, ignored);

  const std::map<std::string, const Link*> before = RnicLinks();
  const std::map<std::string, const Link*> after = fresh.RnicLinks();
  for (const auto& [name, old_link] : before) {
    auto now = after.find(name);
    if (now == after.end() || now->second->fields.ifindex != old_link->fields.ifindex)
      out.push_back(Change(NetdevChange::Kind::kVanished, dump.at, *old_link));
  }
  for (const auto& [name, new_link] : after) {
    auto was = before.find(name);
    if (was == before.end() || was->second->fields.ifindex != new_link->fields.ifindex) {
      out.push_back(Change(NetdevChange::Kind::kAppeared, dump.at, *new_link));
      continue;
    }
    // The link change first, then the addresses lost or added meanwhile: a detector sees the
    // carrier move before them. Both address sets are ordered, so one merge finds each difference.
    const Link& old_link = *was->second;
    if (old_link.fields != new_link->fields)
      out.push_back(Change(NetdevChange::Kind::kLink, dump.at, *new_link));
    std::vector<IpAddress> removed, added;
    std::set_difference(old_link.addresses.begin(), old_link.addresses.end(),
                        new_link->addresses.begin(), new_link->addresses.end(),
                        std::back_inserter(removed));
    std::set_difference(new_link->addresses.begin(), new_link->addresses.end(),
                        old_link.addresses.begin(), old_link.addresses.end(),
                        std::back_inserter(added));
    for (IpAddress& a : removed)
      out.push_back(Change(NetdevChange::Kind::kAddressRemoved, dump.at, *new_link, std::move(a)));
    for (IpAddress& a : added)
      out.push_back(Change(NetdevChange::Kind::kAddressAdded, dump.at, *new_link, std::move(a)));
  }
  if (fresh.rules_ != rules_ || fresh.routes_ != routes_) out.push_back(RoutingChange(dump.at));
  *this = std::move(fresh);
}

std::map<std::string, const NetdevTracker::Link*> NetdevTracker::RnicLinks() const {
  std::map<std::string, const Link*> out;
  for (const auto& [name, ifindex] : ifindex_by_name_)
    if (IsRnic(name)) out.emplace(name, &links_.at(ifindex));
  return out;
}

std::map<std::string, NetdevState> NetdevTracker::RnicStates() const {
  std::map<std::string, NetdevState> out;
  for (const auto& [name, link] : RnicLinks()) out.emplace(name, StateOf(*link));
  return out;
}

std::optional<NetdevState> NetdevTracker::Find(const std::string& name) const {
  auto it = ifindex_by_name_.find(name);
  if (it == ifindex_by_name_.end()) return std::nullopt;
  return StateOf(links_.at(it->second));
}

std::vector<Route> NetdevTracker::RoutesOf(const std::string& name) const {
  std::vector<Route> out;
  auto it = ifindex_by_name_.find(name);
  if (it == ifindex_by_name_.end()) return out;
  for (const Route& r : routes_)
    if (r.oif == it->second) out.push_back(r);
  return out;
}

}  // namespace rocewatch
