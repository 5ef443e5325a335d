#pragma once
// Each rail's far end in the diagnose report (docs/diagnose.md, "The far end of each rail"): from
// the daemon when it knows the rail's LLDP neighbor, else from the recording a bundle holds
// (<host-root>/rocewatch/lldp/<netdev>.pcap, lldp/lldp_pcap.h), else unknown ("no LLDP frame
// yet"). Recorded neighbors are also checked here as the daemon checks live ones
// (fabric/fabric_checks.h, fabric/rail_cabling_checks.h without a plan), with the recorded host's
// MTUs and DCB answers (netlink/dcb_recording.h): a bundle reads back with its fabric findings.

#include <map>
#include <string>
#include <vector>

#include "export/exposition_text.h"
#include "fabric/neighbor_labels.h"
#include "model/finding.h"
#include "model/node.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

struct RailNeighborReport {
  std::string source;  // "daemon" | "recording"
  NeighborLabels labels;
};

struct RailNeighborLook {
  std::map<std::string, RailNeighborReport> by_netdev;  // RoCE port netdevs with a known far end
  std::vector<Finding> findings;  // the checks of recorded neighbors; unreadable recordings
};

// `daemon_metrics` is null without a usable daemon. Labels taken from the daemon are made valid
// UTF-8 and cut as the daemon cuts its own (fabric/neighbor_labels.h): its answer is not trusted.
RailNeighborLook LookUpRailNeighbors(const NodeSnapshot& snapshot,
                                     const std::vector<ExposedSample>* daemon_metrics,
                                     const FileSystem& fs, const HostPaths& paths);

}  // namespace rocewatch
