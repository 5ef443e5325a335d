#include "diagnose/configuration_facts.h"

#include "os/host_file_system.h"

namespace rocewatch {

ConfigurationFacts ReadConfigurationFacts(const FileSystem& fs, const HostPaths& paths,
                                          const std::vector<std::string>& netdevs) {
  std::vector<ProcessEntry> processes = ListProcesses(fs, paths.procfs_root);
  ConfigurationFacts facts;
  facts.host = ReadHostNetworkConfig(HostFileSystem(fs, paths), netdevs, processes);
  facts.nccl = ScanNcclProcesses(fs, paths.procfs_root, processes);
  return facts;
}

}  // namespace rocewatch
