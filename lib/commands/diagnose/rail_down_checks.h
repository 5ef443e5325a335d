#pragma once
// diagnose's own look for a rail lost under a job (docs/detection.md, "A link lost under a job"):
//   rail_down_under_job   critical  a port whose link is down (PortCarrier: its netdev has no
//                                   carrier, or sysfs says DOWN or a physical state other than
//                                   LinkUp) while a process or pod holds its device
// The daemon also counts a rail that carried traffic shortly before its link went down; its
// finding is merged into the report by (check, subject), so `diagnose --npd` reports either.
// Pure: values in, findings out.

#include <map>
#include <string>
#include <vector>

#include "model/finding.h"
#include "model/netdev.h"
#include "model/node.h"
#include "model/rail_consumer.h"

namespace rocewatch {

// `netdevs`: the states known by netdev name (a port whose netdev is absent is judged by its
// sysfs state); `consumers`: who holds each device.
std::vector<Finding> CheckRailsDownUnderJob(const NodeSnapshot& snapshot,
                                            const std::map<std::string, NetdevState>& netdevs,
                                            const ConsumerObservation& consumers);

}  // namespace rocewatch
