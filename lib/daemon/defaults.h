#pragma once
// The defaults of `rocewatch run` and `rocewatch diagnose`, in one place. The option structs
// (daemon/options.h, MonitorOptions, GidReadPolicy, SysfsCadence) are initialised from these, and
// the command line shows and parses its defaults from a default RunOptions (cli.cc), so a default
// is changed here and nowhere else. Defaults that belong to one lower layer stay there and are read
// through their structs: the netlink receive buffer (netlink/rtnetlink_source.h), the IP-loss
// grace (netdev_health/ip_loss_detector.h), consumers (consumers/consumer_options.h), traffic and
// ethtool (their options headers). docs/cli.md lists every one.

#include <chrono>
#include <cstdint>

#include "core/clock.h"

namespace rocewatch::defaults {

// --interval: a snapshot (GID tables through verbs, byte counters) this often.
inline constexpr Duration kPollInterval = std::chrono::seconds(1);
// --settle: from a link, address or verbs event to the snapshot it triggers.
inline constexpr Duration kSettle = std::chrono::milliseconds(100);
// --gid-backstop: through sysfs, GID tables at least this often; and on every poll for
// kGidHotWindow after an event.
inline constexpr Duration kGidBackstop = std::chrono::seconds(30);
inline constexpr Duration kGidHotWindow = std::chrono::seconds(10);
// Through sysfs each GID read covers the used part of a table (sysfs/sysfs_gid_table_source.h);
// every table is read whole at least this often (docs/design.md says why 5 min).
inline constexpr Duration kGidWholeTableInterval = std::chrono::minutes(5);
// --slow-counter-interval and --listing-backstop (daemon/inventory_snapshot_source.h).
inline constexpr Duration kSlowCounterInterval = std::chrono::seconds(10);
inline constexpr Duration kListingBackstop = std::chrono::seconds(60);
// --listen: loopback by default (":9879" is every interface, a host address that address); its
// port is where diagnose --daemon looks for the daemon without a local socket.
inline constexpr const char* kListenHost = "127.0.0.1";
inline constexpr uint16_t kListenPort = 9879;
// --api-socket: the local unix socket serving /api/v1/findings, /metrics and /healthz, and where
// diagnose --daemon looks first. Empty disables it.
inline constexpr const char* kApiSocket = "/run/rocewatch/rocewatch.sock";
// --state-file.
inline constexpr const char* kStateFile = "/var/lib/rocewatch/state.json";
// diagnose --daemon: how long the daemon may take to answer.
inline constexpr Duration kDaemonTimeout = std::chrono::seconds(2);

}  // namespace rocewatch::defaults
