#pragma once
// "The RNIC netdevs" of a node: one definition, with its scopes named, that the daemon, diagnose
// and collect all take from a NodeSnapshot (so they cannot answer differently about one node).
//
//   kAll    every port's own netdevs (<device>/device/net, by dev_port) and every netdev a GID
//           entry names (VLAN and bond uppers): what the netlink listener, the ethtool and
//           traffic components watch, and what diagnose reads links and addresses of
//   kRoce   the same, of RoCE ports only (link layer Ethernet): the configuration checks
//   kPort   the ports' own netdevs only (Port::own_netdevs; PrimaryNetdev where a snapshot does not
//           tell them apart): where a switch's LLDP frames arrive, untagged
//   kGid    the netdevs that carry a GID entry
//
// Pure: the snapshot in, names out (unique, in natural order: ens2 before ens10).

#include <string>
#include <vector>

#include "model/node.h"

namespace rocewatch {

enum class RnicNetdevScope { kAll, kRoce, kPort, kGid };

std::vector<std::string> RnicNetdevs(const NodeSnapshot& snapshot, RnicNetdevScope scope);

}  // namespace rocewatch
