#include "app/collect_command.h"

#include "collect/support_bundle.h"
#include "consumers/recorded_pod_resources_source.h"
#include "ethtool/live_ethtool_sources.h"

namespace rocewatch {

int RunCollect(const CollectCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.directory.empty()) {
    err << "rocewatch collect: DIR must not be empty\n";
    return 3;
  }
  const HostPaths& paths = options.common.paths;
  PosixFileSystem fs(PosixFileSystem::Options{.stop_at_short_read = false});
  SystemClock clock;
  LiveEthtoolSources live;
  EthtoolPoller ethtool(fs, paths.host_root, paths.sysfs_root, live.statistics(), live.netlink());
  SystemNetdevReader netdevs(fs, paths);
  DirectoryBundleWriter writer(options.directory);
  std::unique_ptr<PodResourcesSource> kubelet = PodResourcesSourceFor(fs, paths, options.consumers);
  StatusOr<CollectSummary> summary =
      CollectSupportBundle(fs, paths, ethtool, netdevs, writer,
                           CollectOptions{options.optics, kubelet.get()}, clock.UnixSeconds());
  if (!summary.ok()) {
    err << "rocewatch collect: cannot write the bundle: " << summary.status().message() << "\n";
    return 3;
  }
  for (const std::string& failure : summary->failures)
    err << "  not collected: " << failure << "\n";
  out << "collected " << summary->files << " files (" << summary->netdevs.size()
      << " RNIC netdevs) into " << options.directory << "; read it anywhere with: rocewatch "
      << "diagnose --host-root " << options.directory << "\n";
  return 0;
}

}  // namespace rocewatch
