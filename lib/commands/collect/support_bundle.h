#pragma once
// `rocewatch collect DIR`: what diagnose reads from this host, written as a host-root tree that
// `rocewatch diagnose --host-root DIR` (and `run`) read on any machine (docs/bundle.md):
//   sys/class/infiniband/<dev>/        device attributes, ports/ (state, GIDs, counters), the
//                                      netdevs of device/net/ (dev_port)
//   sys/class/net/<netdev>/            the RNIC netdevs' attributes and statistics/
//   etc/, run/                         NetworkManager, systemd-networkd, netplan, ifupdown
//   sys/class/infiniband_verbs/*/ibdev the RDMA device behind each /dev/infiniband/uverbsN
//   proc/<pid>/                        processes holding /dev/infiniband/uverbs*: comm, cmdline,
//                                      environ, cgroup, maps and those fd links; every other
//                                      process as an empty fd/ (holds none) or a bare directory
//                                      (descriptors unreadable); comm of pid 2 (kthreadd)
//   proc/sys/net/ipv6/conf/            keep_addr_on_down of the RNIC netdevs, all and default
//   proc/sys/kernel/random/boot_id     which boot of which host this is
//   var/lib/rocewatch/state.json       the daemon's state file, at its default path
//   rocewatch/ethtool/<netdev>/        the ethtool answers as recordings (ethtool_recording.h)
//   rocewatch/kubelet/pod-resources.json  the kubelet's pod-resources answer (or its failure)
//   rocewatch/dcb/<netdev>.json        each RoCE port netdev's DCB answer (netlink/dcb_recording.h)
//   rocewatch/lldp/<netdev>.pcap       each RoCE port netdev's last LLDP frame (lldp/lldp_pcap.h)
//   rocewatch/daemon/                  the running daemon's answer: its findings and events,
//                                      its /metrics (diagnose/daemon_recording.h)
//   rocewatch/netlink/addresses        the RNIC netdevs' addresses and link flags (for people)
//   rocewatch/bundle.json              what was collected, when, by which version, what failed
// Attributes the kernel refuses to read (EINVAL on an empty GID slot, speed of a down link) are
// left out, which reads back the same way: as absent.

#include <string>
#include <vector>

#include "collect/bundle_writer.h"
#include "consumers/pod_resources.h"
#include "core/clock.h"
#include "diagnose/daemon_view.h"
#include "ethtool/ethtool_poller.h"
#include "lldp/lldp_socket.h"
#include "netlink/dcb_pfc.h"
#include "os/file_system.h"
#include "os/host_paths.h"
#include "os/netdev_reader.h"

namespace rocewatch {

struct CollectOptions {
  bool optics = true;  // read transceiver pages
  // The kubelet's pod-resources API, recorded as rocewatch/kubelet/pod-resources.json; null: not
  // asked (no recording: diagnose of the bundle then looks for a socket inside it, finds none).
  PodResourcesSource* kubelet = nullptr;
  // Each rail's LLDP frame (collect/lldp_capture.h): the sockets to read, the clock of the wait and
  // its bound; no opener or a zero wait records none.
  LldpSocketOpener lldp;
  const Clock* clock = nullptr;
  Duration lldp_wait{};
  // Each RoCE port netdev's DCB answer; null: none recorded. A netdev it does not find (NotFound)
  // is left out.
  DcbAnswerReader dcb{};
  // The running daemon's documents (diagnose/daemon_view.h: LiveDaemon), recorded under
  // rocewatch/daemon/ as asked at `daemon_url`; null: not asked, nothing recorded. One that does
  // not answer is a line of failures.
  DaemonDocuments daemon;
  std::string daemon_url;
};

struct CollectSummary {
  size_t files = 0;
  std::vector<std::string> netdevs;   // the RNIC netdevs found
  std::vector<std::string> failures;  // one line per item that could not be collected
};

// Collects from the host under `paths` through `fs` (and, for the ethtool recordings, `ethtool`;
// for addresses, `netdevs`) into `out`. Never stops at a failed item: it is listed in failures.
// Errors: only a bundle that cannot be written at all (the first write fails).
StatusOr<CollectSummary> CollectSupportBundle(const FileSystem& fs, const HostPaths& paths,
                                              EthtoolPoller& ethtool, NetdevReader& netdevs,
                                              BundleWriter& out, const CollectOptions& options,
                                              double unix_now);

}  // namespace rocewatch
