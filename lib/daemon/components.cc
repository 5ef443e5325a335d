#include "daemon/components.h"

#include "core/text.h"
#include "daemon/guarded_lldp_reads.h"
#include "fabric/rail_plan.h"
#include "gid_drift/gid_drift_component.h"
#include "inventory/device_presence_component.h"
#include "inventory/inventory_component.h"
#include "lldp/recorded_lldp_socket.h"
#include "netdev_health/netlink_component.h"
#include "netlink/dcb_recording.h"

namespace rocewatch {
namespace {

// A component's own reading thread, reporting into the daemon's StuckCalls.
GuardedReaderOptions GuardedReads(const ComponentEnvironment& env) {
  GuardedReaderOptions reads;
  reads.stuck = env.stuck_calls;
  reads.deadline = env.read_deadline;
  return reads;
}

// A port that disappears is acknowledged gone once the rail plan no longer lists it (no line
// covers it, or its line reads `- -`); without a plan every port is expected back.
PortExpected ExpectedByRailPlan(const std::optional<RailPlan>& plan) {
  if (!plan) return nullptr;
  return [plan = *plan](const PortKey& port, const std::string& netdev) {
    return PlanListsRail(plan, RailIdentity{netdev, port.device, port.port, 0});
  };
}

}  // namespace

ComponentSet BuildComponents(const ComponentEnvironment& env) {
  ComponentSet set;
  set.all.push_back(std::make_unique<InventoryComponent>());
  // RDMA ports that disappear: held until they return or the rail plan no longer lists them. The
  // ports seen on this boot survive a restart (the state file, below).
  auto presence =
      std::make_unique<DevicePresenceComponent>(ExpectedByRailPlan(env.options.lldp.rail_plan));
  presence->KeepIncidents();
  set.all.push_back(std::move(presence));
  NetlinkComponent::Options netlink;
  netlink.health.ip_loss.grace = env.options.ip_missing_grace;
  // Carrier-down events say why the link went down: the ethtool component provides that service
  // on the node state.
  netlink.link_down_reasons = true;
  // Link quality, PFC and optics.
  // Its driver calls run on a reading thread behind the read deadline; one given up on is
  // replaced by a thread with the ethtool interfaces opened anew.
  EthtoolReadDeadline deadline;
  deadline.stuck = env.stuck_calls;
  deadline.call_deadline = env.read_deadline;
  deadline.reopen = env.host.ethtool;
  auto ethtool =
      std::make_unique<EthtoolComponent>(env.options.ethtool, env.fs, env.options.common.paths,
                                         env.host.ethtool(), std::move(deadline));
  // Open incidents survive a restart of the daemon on the same boot: each feature provides its
  // own on the node state, the GID drift component (the state file's owner) writes them after
  // every poll and gives them back at the next start, and each feature resumes its own.
  StateParts kept_incidents = {StatePart::kNetdevIncidents, StatePart::kRailIncidents,
                               StatePart::kLinkVerdicts, StatePart::kSeenPorts};
  ethtool->KeepIncidents();
  auto netlink_component = std::make_unique<NetlinkComponent>(
      netlink, env.host.rtnetlink(env.options.netlink_receive_buffer));
  netlink_component->KeepIncidents();
  set.all.push_back(std::move(netlink_component));
  // The drift and traffic components name the consumers in what they report (they read the
  // node state's consumers part; the Monitor runs the consumers component before them).
  auto consumers = std::make_unique<ConsumerComponent>(
      env.procfs, env.options.common.paths, env.options.consumers,
      env.host.kubelet(env.fs, env.options.common.paths, env.options.consumers), GuardedReads(env));
  set.consumers = consumers.get();
  set.all.push_back(std::move(consumers));
  const bool lldp_on = env.options.lldp.enabled && env.host.lldp;
  if (lldp_on) kept_incidents.Add(StatePart::kFarEnds);
  GidDriftOptions drift_options;
  drift_options.expected_gid_index = env.options.expected_gid_index;
  drift_options.kept_incidents = kept_incidents;
  std::unique_ptr<GidDriftComponent> drift = GidDriftComponent::ForDaemon(
      env.fs, *env.host.state_writer, env.options.common.paths.procfs_root, env.options.state_file,
      env.verbs_devices, drift_options);
  drift->UseConsumers();
  set.all.push_back(std::move(drift));
  auto traffic = std::make_unique<TrafficComponent>(env.options.traffic, env.options.interval / 2);
  traffic->UseConsumers();
  traffic->KeepIncidents();
  set.traffic = traffic.get();
  set.all.push_back(std::move(traffic));
  set.ethtool = ethtool.get();
  set.all.push_back(std::move(ethtool));
  // Each rail's far end (LLDP); a host without the capability or the netdevs reports it and
  // goes on.
  if (lldp_on) {
    // Its MTU and DCB reads run on a reading thread of their own, behind the read deadline; a
    // recorded host (--host-root over a bundle) replays its rails' recorded frames and DCB
    // answers.
    std::function<HostPfcReader()> open_pfc;
    if (env.host.dcb) {
      open_pfc = [open = env.host.dcb, files = env.host.files,
                  root = env.options.common.paths.host_root] {
        return HostPfcFromAnswers(DcbRecordingsFirst(open(), *files, root));
      };
    }
    LldpHostReaders reads = GuardLldpHostReads(env.fs, env.options.common.paths,
                                               std::move(open_pfc), GuardedReads(env));
    auto lldp = std::make_unique<LldpComponent>(
        env.options.lldp,
        RecordingsFirst(env.host.lldp, *env.host.files, *env.host.clock,
                        env.options.common.paths.host_root),
        std::move(reads.read_mtu), std::move(reads.read_pfc));
    lldp->KeepIncidents();
    set.lldp = lldp.get();
    set.all.push_back(std::move(lldp));
  }
  return set;
}

}  // namespace rocewatch
