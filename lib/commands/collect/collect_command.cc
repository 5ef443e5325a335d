#include "collect/collect_command.h"

#include "collect/support_bundle.h"
#include "core/duration.h"
#include "core/terminal_text.h"
#include "diagnose/daemon_view.h"
#include "lldp/recorded_lldp_socket.h"
#include "netlink/dcb_recording.h"
#include "netlink/netlink_netdev_reader.h"

namespace rocewatch {

int RunCollect(const HostEnv& env, const CollectCommandOptions& options, std::ostream& out,
               std::ostream& err) {
  if (options.directory.empty()) {
    err << "rocewatch collect: DIR must not be empty\n";
    return 3;
  }
  const HostPaths& paths = options.common.paths;
  const FileSystem& fs = *env.files;  // whole files: procfs and configuration files too
  EthtoolSources live = env.ethtool();
  EthtoolPoller ethtool(fs, paths.host_root, paths.sysfs_root, live.statistics.get(),
                        live.netlink.get());
  // Links and addresses through the daemon's rtnetlink stack, in one dump.
  std::unique_ptr<RtnetlinkSource> rtnetlink = env.rtnetlink(kDefaultNetlinkReceiveBufferBytes);
  NetlinkNetdevReader netdevs(*rtnetlink, fs, paths);
  DirectoryBundleWriter writer(options.directory);
  if (Status opened = writer.Open(); !opened.ok()) {
    err << "rocewatch collect: " << TerminalSafe(opened.message()) << "\n";
    return 3;
  }
  std::unique_ptr<PodResourcesSource> kubelet = env.kubelet(fs, paths, options.consumers);
  CollectOptions collect;
  collect.optics = options.optics;
  collect.kubelet = kubelet.get();
  // A recorded host (a bundle) gives its recordings back; a live one its sockets.
  collect.lldp = RecordingsFirst(env.lldp, fs, *env.clock, paths.host_root);
  if (env.dcb) collect.dcb = DcbRecordingsFirst(env.dcb(), fs, paths.host_root);
  collect.clock = env.clock;
  if (options.daemon) {
    collect.daemon = LiveDaemon(*options.daemon, options.daemon_timeout, env.fetch);
    collect.daemon_url = options.daemon_text;
  }
  collect.lldp_wait = options.lldp_wait;
  if (options.lldp_wait > Duration::zero())
    err << "rocewatch collect: waiting up to " << FormatDuration(options.lldp_wait)
        << " for each rail's LLDP frame (--lldp-wait 0 skips)\n";
  StatusOr<CollectSummary> summary =
      CollectSupportBundle(fs, paths, ethtool, netdevs, writer, collect, env.clock->UnixSeconds());
  if (!summary.ok()) {
    err << "rocewatch collect: cannot write the bundle: "
        << TerminalSafe(summary.status().message()) << "\n";
    return 3;
  }
  for (const std::string& failure : summary->failures)
    err << "  not collected: " << TerminalSafe(failure) << "\n";
  out << "collected " << summary->files << " files (" << summary->netdevs.size()
      << " RNIC netdevs) into " << options.directory << "; read it anywhere with: rocewatch "
      << "diagnose --host-root " << options.directory << "\n";
  return 0;
}

}  // namespace rocewatch
