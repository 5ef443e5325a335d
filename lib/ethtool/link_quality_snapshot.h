#pragma once
// One look at the RNIC netdevs' link quality for a one-shot `rocewatch diagnose`: opens the
// ethtool sources of this network namespace, reads each netdev once (recordings under the host
// root take precedence), and the modules unless `optics` is off. Netdevs neither present here
// nor recorded are left out.

#include <string>
#include <vector>

#include "ethtool/link_quality_report.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

std::vector<LinkQualityEntry> ReadLinkQualityOnce(const FileSystem& fs, const HostPaths& paths,
                                                  const std::vector<std::string>& netdevs,
                                                  bool optics);

}  // namespace rocewatch
