#pragma once
// Gathers the host facts the configuration checks need, all through FileSystem under the host
// root: the process list, the host network configuration of the RNIC netdevs and the NCCL
// settings of running jobs. One pass over procfs, shared by both.

#include "diagnose/configuration_checks.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

struct ConfigurationFacts {
  HostNetworkConfig host;
  NcclProcessScan nccl;
};

// `netdevs`: the netdevs whose configuration to read (managed_by is reported for each); the
// checks look at the RoCE ones (RnicNetdevs).
ConfigurationFacts ReadConfigurationFacts(const FileSystem& fs, const HostPaths& paths,
                                          const std::vector<std::string>& netdevs);

}  // namespace rocewatch
