#pragma once
// Open incidents across a restart of the daemon on the same boot. The state file (written by the
// GID drift component, gid_drift/gid_state_store.h) keeps, beside the GID state, what each open
// incident needs to be judged again (gid_drift/incident_state.h); this component assembles it from
// the netlink and traffic components and the Monitor's first-seen times, has it written when it
// changed (after every component ran on a snapshot, not on every poll), and at start hands a
// restored state back, to be judged against the live host at once:
//   - an address still absent is still missing, since its original time; a policy rule still
//     absent while its address is present is still missing; what came back resolves with an event;
//   - a rail that was collapsed or degraded starts in that state with its baseline and original
//     since, and is judged by the traffic detector's own rules on the first measured rate (the
//     second snapshot): still silent while its consumers are alive it stays collapsed; carrying
//     traffic again, it resolves with an event. Rail states older than `traffic_trust` (by the
//     file's time) are not restored at all;
//   - findings that are still open keep their original `since`;
//   - a link that was degraded or failing, and a PFC storm, keep that verdict until the live
//     counters judge again (a whole link-quality window; a measured pause fraction; the driver's
//     storm events: their event window), so a restart does not call a failing link ok;
//   - each rail's last LLDP far end is what the next frame is compared with (a rail recabled
//     while the daemon was down is reported changed), and the current neighbor again while its
//     TTL from its last frame has not passed, so the fabric checks judge it at once.
// Entries for netdevs and ports that no longer exist are dropped with an event. A new boot, an
// unusable file, a file of another schema: nothing is restored (the store decides and logs).
// Exports rocewatch_restored_incidents{check,status} (docs/metrics.md).
//
// Threading: the event-loop thread. Lifetime: the components of RestartStateSources outlive this
// one (they are registered before it in the same Monitor).

#include <map>
#include <string>
#include <utility>

#include "component/monitor_component.h"
#include "fabric/lldp_component.h"
#include "gid_drift/gid_drift_component.h"
#include "link_quality/ethtool_component.h"
#include "netdev_health/netlink_component.h"
#include "traffic/traffic_component.h"

namespace rocewatch {

struct RestartStateOptions {
  // A rail state written longer ago than this is not trusted: the job may have ended, restarted
  // or moved meanwhile. 10 minutes covers a DaemonSet rollout or an OOM restart with backoff.
  Duration traffic_trust = std::chrono::minutes(10);
};

// The components whose open incidents are kept. `lldp` and `ethtool` are null when off.
struct RestartStateSources {
  GidDriftComponent& drift;
  NetlinkComponent& netlink;
  TrafficComponent& traffic;
  LldpComponent* lldp = nullptr;
  EthtoolComponent* ethtool = nullptr;
};

class RestartStateComponent final : public MonitorComponent {
 public:
  // Registers itself as the drift component's incident source. REQUIRES: registered after every
  // component of `sources`.
  explicit RestartStateComponent(RestartStateSources sources, RestartStateOptions options = {});

  std::string_view name() const override { return "restart"; }
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;

  // What the state file would hold now (times in Unix seconds).
  PersistedIncidents Assemble(const MonitorContext& ctx) const;

 private:
  void RestoreNetdevs(MonitorContext& ctx);
  void RestoreRails(MonitorContext& ctx, const PersistedIncidents& saved, double age_seconds);

  GidDriftComponent& drift_;
  NetlinkComponent& netlink_;
  TrafficComponent& traffic_;
  LldpComponent* const lldp_;
  EthtoolComponent* const ethtool_;
  const RestartStateOptions options_;
  const MonitorContext* ctx_ = nullptr;  // set by Start, for the incident source
  // (check, status) of the netdev incidents judged at start.
  std::map<std::pair<std::string, std::string>, size_t> netdev_counts_;
  size_t rails_not_trusted_ = 0;
  bool restoring_ = false;  // Start restored a file: the netdevs are judged on the first snapshot
  double age_seconds_ = 0;  // of the restored file
  std::map<std::string, PersistedNetdevIncidents> pending_netdevs_;
  // First-seen times of the previous run, kept in what is written until the Monitor has
  // published the first poll's findings with them.
  MonitorContext::FindingSince restored_since_;
  uint64_t snapshots_ = 0;
};

// Rounds a baseline to two significant digits: the state file is rewritten when a baseline moves
// by more than a few percent, not on every poll's new median.
double RoundBaseline(double bytes_per_second);

}  // namespace rocewatch
