#pragma once
// What the node should have, from what the daemon last knew (docs/diagnose.md,
// "rail_address_missing"): the daemon's persisted state file (gid_drift/gid_state_store.h) holds,
// per port, the GID table it last read and the GIDs that left it. A one-shot `diagnose --daemon
// none` compares them with the live node, so a rail whose IPv4 address (and with it its RoCE v2
// IPv4 GID) is gone is critical even with no daemon to ask.
//
//   rail_address_missing  critical  a RoCE port that the daemon last saw with a RoCE v2 IPv4 GID
//                                   (for an address of its netdev) now has no RoCE v2 IPv4 GID at
//                                   all, and that address is not on the netdev
// Not judged: a state of another boot (GID tables are rebuilt at boot), a port whose GID table is
// not fully known (read_failed), a netdev whose addresses are unknown (not in this namespace).
// Pure: values in, findings out.

#include <map>
#include <string>
#include <vector>

#include "gid_drift/gid_state_store.h"
#include "model/finding.h"
#include "model/netdev.h"
#include "model/node.h"

namespace rocewatch {

namespace check_id {
inline constexpr char kRailAddressMissing[] = "rail_address_missing";
}  // namespace check_id

// `persisted` as parsed from the state file at `state_path` (for the message); `boot_id` this
// host's. `netdevs`: live states of the netdevs whose addresses are known.
std::vector<Finding> CheckAgainstPersistedState(const NodeSnapshot& snapshot,
                                                const std::map<std::string, NetdevState>& netdevs,
                                                const PersistedGidState& persisted,
                                                const std::string& boot_id,
                                                const std::string& state_path);

}  // namespace rocewatch
