#include "ethtool/link_quality_snapshot.h"

#include <set>

#include "ethtool/live_ethtool_sources.h"

namespace rocewatch {

std::vector<LinkQualityEntry> ReadLinkQualityOnce(const FileSystem& fs, const HostPaths& paths,
                                                  const std::vector<std::string>& netdevs,
                                                  bool optics) {
  LiveEthtoolSources live;
  EthtoolPoller poller(fs, paths.host_root, paths.sysfs_root, live.statistics(), live.netlink());
  std::vector<LinkQualityEntry> entries;
  for (auto& [netdev, readings] :
       poller.Poll(std::set<std::string>(netdevs.begin(), netdevs.end()))) {
    if (!readings.present) continue;
    if (!readings.recorded && readings.outcomes.empty()) continue;  // no source answered at all
    LinkQualityEntry entry;
    entry.netdev = netdev;
    entry.readings = std::move(readings);
    if (optics) {
      ModuleOutcome module = poller.PollModule(netdev);
      if (module.module) entry.optics = EvaluateOptics(*module.module);
      if (module.module || !module.error.empty()) entry.module = std::move(module);
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace rocewatch
