#pragma once
// A one-shot read of RNIC netdevs for `rocewatch diagnose`: their link state and addresses, and the
// policy routing tied to their addresses, in the network namespace of the calling thread.

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
  std::vector<PolicyRule> rules;     // rules whose source covers an address of those netdevs
  std::vector<Route> routes;         // routes through those netdevs (not the local table)
};

// Dumps through a LibnlRtnetlinkSource. Errors: IoError when rtnetlink cannot be read.
StatusOr<NetdevDumpReport> DumpNetdevs(const std::set<std::string>& names);
// The same from a given (possibly fake) source; opens it if needed.
StatusOr<NetdevDumpReport> DumpNetdevs(RtnetlinkSource& source, const std::set<std::string>& names);

}  // namespace rocewatch
