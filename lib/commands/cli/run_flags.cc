#include "cli/run_flags.h"

#include "link_quality/ethtool_flags.h"
#include "traffic/traffic_flags.h"

namespace rocewatch {

FlagTable RunFlagTable(RunOptions& o) {
  FlagTable flags;
  flags
      .Custom("--listen",
              "HOST:PORT for /metrics, /healthz and /api/v1/findings (IPv4; :PORT is every "
              "interface)",
              o.listen.ToText(),
              [&o](const std::string& text) -> Status {
                StatusOr<ListenAddress> address = ParseListenAddress(text);
                if (!address.ok()) return address.status();
                o.listen = *address;
                return Status::Ok();
              })
      .Text("--api-socket",
            "Local unix socket also serving /api/v1/findings, /metrics and /healthz (empty: none)",
            o.api_socket)
      .PositiveDuration("--interval", "GID and counter poll interval (e.g. 500ms, 1s, 2m)",
                        o.interval)
      .PositiveDuration("--gid-backstop",
                        "Through sysfs, GID tables are read after events and at least this often",
                        o.gid_backstop)
      .PositiveDuration("--slow-counter-interval",
                        "Port attributes and error/congestion counters are read this often and "
                        "after events (the byte counters every --interval)",
                        o.slow_counter_interval)
      .PositiveDuration("--listing-backstop",
                        "sysfs directories (devices, ports, counters) are listed after device "
                        "events and at least this often",
                        o.listing_backstop)
      .AnyDuration("--settle",
                   "Delay between a link/address/verbs event and the snapshot it triggers",
                   o.settle)
      .Text("--state-file",
            "Where the last known GID tables are kept across restarts (empty: nowhere)",
            o.state_file)
      .OptionalInteger("--expected-gid-index",
                       "The GID index the cluster pins (NCCL_IB_GID_INDEX), e.g. 3", 0, 65535,
                       o.expected_gid_index)
      .Integer("--netlink-receive-buffer",
               "Receive buffer of the rtnetlink socket in bytes (an overrun costs a re-dump)", 1024,
               1 << 30, o.netlink_receive_buffer)
      .AnyDuration("--ip-missing-grace",
                   "How long after carrier returns an address lost in a flap may stay away",
                   o.ip_missing_grace)
      // Who uses each rail (docs/detection.md, "Who uses a rail").
      .AnyDuration("--consumer-scan-interval",
                   "How often RDMA consumers (processes, pods, jobs) are looked for; 0 disables",
                   o.consumers.scan_interval)
      .PositiveDuration("--consumer-recheck",
                        "A process that held no RDMA device is looked at again after this long",
                        o.consumers.recheck_after)
      .Text("--kubelet-socket",
            "The kubelet pod-resources socket (default <host-root>/var/lib/kubelet/"
            "pod-resources/kubelet.sock; none: not used)",
            o.consumers.kubelet_socket)
      .PositiveDuration("--kubelet-timeout", "Deadline of one kubelet call",
                        o.consumers.kubelet_timeout)
      .PositiveDuration("--kubelet-interval",
                        "How often the kubelet is asked which pods hold RDMA devices (also at "
                        "every full consumer scan)",
                        o.consumers.kubelet_interval);
  return flags;
}

FlagTable RunCommandFlagTable(RunOptions& options, LldpFlagValues& lldp) {
  FlagTable flags = RunFlagTable(options);
  AddTrafficFlags(flags, options.traffic);
  AddEthtoolFlags(flags, options.ethtool);
  AddLldpFlags(flags, lldp);
  return flags;
}

}  // namespace rocewatch
