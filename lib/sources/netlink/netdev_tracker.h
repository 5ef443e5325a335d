#pragma once
// The live state of the namespace's netdevs, rules and routes, built from rtnetlink messages and
// dumps, and the changes to RNIC netdevs it implies. Pure: messages in, state and changes out.
//
// Links are followed by ifindex, so a rename moves the state to the new name (and makes an RNIC
// netdev appear or vanish). Every link and its addresses are kept (an interface renamed into an
// RNIC name arrives with its addresses); changes are only reported for RNIC netdevs, so messages
// of other interfaces cost one map update. Routes are kept only when their output interface is an
// RNIC netdev (a host may carry large routing tables); rules are all kept (they are few).
// Threading: not thread-safe; one owner.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/netdev_change.h"
#include "netlink/netlink_event.h"

namespace rocewatch {

class NetdevTracker {
 public:
  explicit NetdevTracker(std::set<std::string> rnic_netdevs = {})
      : rnic_(std::move(rnic_netdevs)) {}

  // Replaces the set of RNIC netdev names; present netdevs entering or leaving it are reported
  // as kAppeared / kVanished.
  void SetRnicNetdevs(std::set<std::string> names, MonoTime at, std::vector<NetdevChange>& out);
  const std::set<std::string>& rnic_netdevs() const { return rnic_; }

  // Applies one message (an event or a dump entry); appends the RNIC changes it implies.
  void Apply(const NetlinkMessage& message, std::vector<NetdevChange>& out);

  // Replaces the whole state by `dump` (after an overrun, or as the initial state) and appends
  // the changes between the known state and the dump, as if they had been events at dump.at:
  // link changes first, then removed addresses, then added ones.
  void Resync(const NetlinkDump& dump, std::vector<NetdevChange>& out);

  // RNIC netdevs present now, by name. O(links + their addresses): once per read, not per event.
  std::map<std::string, NetdevState> RnicStates() const;
  // A present netdev (RNIC or not) by name, with its addresses; nullopt when absent.
  std::optional<NetdevState> Find(const std::string& name) const;
  bool IsRnic(const std::string& name) const { return rnic_.count(name) != 0; }

  const std::set<PolicyRule>& rules() const { return rules_; }
  // Routes whose output interface is the RNIC netdev `name`.
  std::vector<Route> RoutesOf(const std::string& name) const;

  size_t link_count() const { return links_.size(); }

 private:
  void ApplyLink(const LinkMessage& m, std::vector<NetdevChange>& out);
  void ApplyAddress(const AddressMessage& m, std::vector<NetdevChange>& out);
  void ApplyRule(const RuleMessage& m, std::vector<NetdevChange>& out);
  void ApplyRoute(const RouteMessage& m, std::vector<NetdevChange>& out);
  bool IsRnicIfindex(int ifindex) const;

  // A link's fields and its addresses, kept apart so that an address event costs O(log n) in
  // the link's addresses (an address storm on one netdev stays linear overall).
  struct Link {
    NetdevState fields;  // addresses always empty
    std::set<IpAddress> addresses;
  };
  static NetdevState StateOf(const Link& link);
  // A change to `link`: with its addresses for kAppeared, its fields alone otherwise
  // (model/netdev_change.h).
  static NetdevChange Change(NetdevChange::Kind kind, MonoTime at, const Link& link,
                             IpAddress address = {});
  // The RNIC links by name.
  std::map<std::string, const Link*> RnicLinks() const;

  std::set<std::string> rnic_;
  std::unordered_map<int, Link> links_;  // by ifindex
  std::map<std::string, int> ifindex_by_name_;
  std::set<PolicyRule> rules_;
  std::set<Route> routes_;  // oif is an RNIC netdev; never the local table
};

// NetdevState fields taken from a link message (addresses are not in it).
void ApplyLinkFields(const LinkMessage& m, NetdevState& state);

}  // namespace rocewatch
