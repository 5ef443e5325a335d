#include "netlink/netdev_dump.h"

#include "model/policy_rule.h"
#include "netlink/netdev_tracker.h"

namespace rocewatch {

StatusOr<NetdevDumpReport> DumpNetdevs(RtnetlinkSource& source,
                                       const std::set<std::string>& names) {
  if (source.fd() < 0) {
    Status s = source.Open();
    if (!s.ok()) return s;
  }
  auto dump = source.Dump();
  if (!dump.ok()) return dump.status();
  NetdevTracker tracker(names);
  std::vector<NetdevChange> ignored;
  tracker.Resync(*dump, ignored);

  NetdevDumpReport report;
  for (const auto& [name, state] : tracker.RnicStates()) {
    report.netdevs.push_back(state);
    for (const Route& r : tracker.RoutesOf(name)) report.routes.push_back(r);
  }
  for (const std::string& name : names)
    if (!tracker.Find(name)) report.absent.push_back(name);
  for (const PolicyRule& rule : tracker.rules()) {
    bool tied = names.count(rule.iifname) != 0 || names.count(rule.oifname) != 0;
    for (const NetdevState& n : report.netdevs)
      for (const IpAddress& a : n.addresses) tied = tied || RuleCoversAddress(rule, a);
    if (tied) report.rules.push_back(rule);
  }
  return report;
}

}  // namespace rocewatch
