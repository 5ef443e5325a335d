#pragma once
// The parsed command line (docs/cli.md). Plain values; parsing and validation
// live in cli.cc.

#include <optional>
#include <string>

#include "consumers/consumer_options.h"
#include "core/clock.h"
#include "daemon/defaults.h"
#include "daemon/gid_source_selection.h"  // GidSourceChoice
#include "export/http_fetch.h"
#include "export/listen_address.h"
#include "fabric/lldp_options.h"
#include "link_quality/ethtool_options.h"
#include "link_quality/link_quality_snapshot.h"
#include "netdev_health/ip_loss_detector.h"
#include "netlink/rtnetlink_source.h"
#include "os/host_paths.h"
#include "traffic/traffic_options.h"

namespace rocewatch {

struct CommonOptions {
  HostPaths paths;  // from --host-root and --sysfs-root
  GidSourceChoice gid_source = GidSourceChoice::kAuto;
  std::string log_level = "info";
  std::string log_format = "text";
};

struct RunOptions {
  CommonOptions common;
  ListenAddress listen{defaults::kListenHost, defaults::kListenPort};
  std::string api_socket = defaults::kApiSocket;  // empty: no local socket
  Duration interval = defaults::kPollInterval;
  Duration settle = defaults::kSettle;
  // Through sysfs, GID tables are read after events and at least this often (see
  // daemon/inventory_snapshot_source.h); through verbs, on every poll.
  Duration gid_backstop = defaults::kGidBackstop;
  // Port attributes and every counter but the byte counters are read this often and after events;
  // directory listings after events and at least every listing_backstop (see
  // daemon/inventory_snapshot_source.h).
  Duration slow_counter_interval = defaults::kSlowCounterInterval;
  Duration listing_backstop = defaults::kListingBackstop;
  std::string state_file = defaults::kStateFile;  // empty: no persistence
  std::optional<uint32_t> expected_gid_index;
  // Netlink listener (docs/netlink.md): SO_RCVBUF of the event socket, and how long after carrier
  // returns an address lost in a flap may stay away before rocewatch_ip_missing is set.
  int netlink_receive_buffer = kDefaultNetlinkReceiveBufferBytes;
  Duration ip_missing_grace = IpLossConfig{}.grace;
  TrafficOptions traffic;     // --traffic-* (docs/detection.md)
  EthtoolOptions ethtool;     // --ethtool-interval, --optics-interval, ... (docs/detection.md)
  ConsumerOptions consumers;  // --consumer-*, --kubelet-* (docs/detection.md, "Who uses a rail")
  LldpOptions lldp;           // each rail's LLDP neighbor (docs/detection.md, "Fabric")
};

struct DiagnoseOptions {
  CommonOptions common;
  bool json = false;
  std::optional<Duration> watch;
  // node-problem-detector plugin mode: one line on stdout, exit 0 OK, 1 NonOK, 2 Unknown
  // (diagnose/npd_verdict.h, npd/npd_command.h).
  bool npd = false;
  Duration interval = defaults::kPollInterval;  // poll interval while watching
  bool optics = true;                           // read transceiver pages (--no-optics turns it off)
  // --link-window: span between the two samples that rate link quality and PFC without --watch
  // (zero: one sample); skipped for netdevs the daemon rates
  // (link_quality/link_quality_snapshot.h).
  Duration link_window = LinkQualityLookOptions{}.window;
  ConsumerOptions consumers;  // --kubelet-socket
  // --daemon: where the running daemon serves /api/v1/findings (http:// or unix:); nullopt for
  // `none`.
  std::optional<HttpUrl> daemon = HttpUrl{"127.0.0.1", defaults::kListenPort, "/", ""};
  std::string daemon_text = DefaultDaemonText();  // as given, for messages
  Duration daemon_timeout = defaults::kDaemonTimeout;
  // True when --daemon (or ROCEWATCH_DAEMON) named the daemon: it is asked even when the host root
  // is a bundle holding a recorded answer, which is read back otherwise (docs/diagnose.md).
  bool daemon_given = false;

  // "http://127.0.0.1:<default port>".
  static std::string DefaultDaemonText() {
    return "http://127.0.0.1:" + std::to_string(defaults::kListenPort);
  }
};

}  // namespace rocewatch
