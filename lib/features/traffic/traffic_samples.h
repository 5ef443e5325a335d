#pragma once
// Turns a NodeSnapshot (and the live netdev states) into the traffic detector's observation.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/netdev.h"
#include "model/node.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {

// The carrier of a port: its netdev's carrier as the netlink listener reports it (`netdevs`, by
// the port's metrics netdev) when known; otherwise from sysfs: a port whose state is DOWN or whose
// physical state is known and not LinkUp has no carrier; else unknown.
std::optional<bool> PortCarrier(const Port& port,
                                const std::map<std::string, NetdevState>& netdevs);

// One sample per port of the snapshot, in snapshot order. The samples point into `snapshot` (its
// hw_counters): REQUIRES: snapshot outlives them.
std::vector<PortTrafficSample> TrafficSamplesFrom(
    const NodeSnapshot& snapshot, const std::map<std::string, NetdevState>& netdevs);

}  // namespace rocewatch
