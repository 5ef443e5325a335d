#pragma once
// The foundation's diagnose checks on ports and GID tables (docs/diagnose.md):
//   port_not_active            warning   a port whose state is not ACTIVE
//   ipv4_without_roce_v2_gid   critical  a RoCE port's netdev has an IPv4 address but the port has
//                                        no RoCE v2 GID for it: NCCL finds no usable GID (not
//                                        judged while a slot of the port is unreadable)
//   gid_table_hole             warning   an empty slot below a non-default GID: a GID moved while
//                                        references (live QPs) held its old slot
// Pure: values in, findings out.

#include <map>
#include <string>
#include <vector>

#include "model/finding.h"
#include "model/netdev.h"
#include "model/node.h"

namespace rocewatch {

// `netdevs` holds the states known for netdev names; a netdev absent from it has unknown addresses
// and is skipped by the address check.
std::vector<Finding> CheckPortsAndGidTables(const NodeSnapshot& snapshot,
                                            const std::map<std::string, NetdevState>& netdevs);

// The empty slots below the highest non-default (not link-local) GID of a port, ascending. A slot
// whose read failed is unknown, not empty: never a hole.
std::vector<uint32_t> HolesBelowNonDefaultGids(const Port& port);

}  // namespace rocewatch
