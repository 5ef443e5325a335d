#pragma once
// A one-shot read of RNIC netdevs for `rocewatch diagnose` and `rocewatch collect` (through
// NetlinkNetdevReader): their link state and addresses, and the policy routing tied to them, in
// the network namespace of the calling thread, through the daemon's rtnetlink source and tracker.

#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/netdev.h"
#include "netlink/netlink_event.h"
#include "netlink/rtnetlink_source.h"

namespace rocewatch {

struct NetdevDumpReport {
  std::vector<NetdevState> netdevs;  // those of the requested names that exist, by name
  std::vector<std::string> absent;   // requested names with no such interface
  std::vector<PolicyRule> rules;     // rules whose source covers an address of those netdevs, or
                                     // whose iif/oif is one of them
  std::vector<Route> routes;         // routes through those netdevs (not the local table)
};

// One dump of `source` (HostEnv::rtnetlink; opened if needed). Errors: IoError when rtnetlink
// cannot be read.
StatusOr<NetdevDumpReport> DumpNetdevs(RtnetlinkSource& source, const std::set<std::string>& names);

}  // namespace rocewatch
