#include "fabric/lldp_component.h"

#include <spdlog/spdlog.h>

#include "fabric/fabric_checks.h"
#include "fabric/fabric_metric_names.h"
#include "fabric/neighbor_labels.h"
#include "fabric/rail_cabling_checks.h"

namespace rocewatch {
LldpComponent::LldpComponent(LldpOptions options, LldpSocketOpener open, MtuReader read_mtu,
                             HostPfcReader read_pfc)
    : options_(options),
      open_(std::move(open)),
      read_mtu_(std::move(read_mtu)),
      read_pfc_(std::move(read_pfc)),
      table_(options.limits) {}

void LldpComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  if (!options_.enabled) return;
  OnSnapshotEnabled(ctx, snapshot);
  if (keep_incidents_) ProvideFarEnds(ctx);
}

void LldpComponent::OnSnapshotEnabled(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  Reconcile(ctx, snapshot);
  if (restored_far_ends_) ApplyRestoredFarEnds(ctx);
  ReadHostPfc(ctx);
  for (auto& [netdev, receiver] : receivers_)
    if (receiver.socket && receiver.socket->fd() < 0) Read(ctx, netdev, receiver);
  for (const std::string& netdev : table_.Expire(ctx.clock().Now())) {
    cached_findings_.reset();
    auto reported = reported_.find(netdev);
    if (reported == reported_.end()) continue;
    ctx.RecordEvent(netdev + ": LLDP neighbor " + DescribeFarEnd(reported->second) +
                        " expired (no frame within its TTL of " +
                        std::to_string(reported->second.ttl_seconds) + " s)",
                    Severity::kInfo);
    reported_.erase(reported);
  }
}

// Whether the snapshot's RoCE port netdevs are exactly rails_ (no allocation).
bool LldpComponent::SameRails(const NodeSnapshot& snapshot) const {
  size_t seen = 0;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      // The primary netdev (model/node.h), without its copy.
      if (!port.IsRoce() || port.netdevs.empty() || port.netdevs.front().empty()) continue;
      auto it = rails_.find(port.netdevs.front());
      if (it == rails_.end() || it->second.first != device.name || it->second.second != port.number)
        return false;
      ++seen;
    }
  return seen == rails_.size();
}

// Sockets follow the RoCE ports' own netdevs: opened for new ones, closed for those gone.
void LldpComponent::Reconcile(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  MonoTime now = ctx.clock().Now();
  // Most polls see the rails of the last one: nothing to build, only sockets to retry.
  if (SameRails(snapshot)) {
    for (auto& [netdev, receiver] : receivers_)
      if (!receiver.socket && (!receiver.retry_at || now >= *receiver.retry_at))
        Open(ctx, netdev, receiver);
    return;
  }
  cached_findings_.reset();
  std::map<std::string, std::pair<std::string, uint32_t>> rails;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      std::string netdev = PrimaryNetdev(port);
      if (port.IsRoce() && !netdev.empty()) rails[netdev] = {device.name, port.number};
    }
  for (auto it = receivers_.begin(); it != receivers_.end();) {
    if (rails.count(it->first)) {
      ++it;
      continue;
    }
    if (it->second.socket && it->second.socket->fd() >= 0)
      ctx.loop().UnwatchFd(it->second.socket->fd());
    table_.Forget(it->first);
    reported_.erase(it->first);
    last_far_end_.erase(it->first);
    mtus_.erase(it->first);
    host_pfc_.erase(it->first);
    it = receivers_.erase(it);
  }
  for (const auto& [netdev, rail] : rails) {
    Receiver& receiver = receivers_[netdev];
    if (!receiver.socket && (!receiver.retry_at || now >= *receiver.retry_at))
      Open(ctx, netdev, receiver);
  }
  rails_ = std::move(rails);
}

// The host's PFC of each rail, at most every kHostPfcEvery. A failed read leaves it unknown (and
// is counted); a netdev not in this namespace (a recorded host) is unknown quietly.
void LldpComponent::ReadHostPfc(MonitorContext& ctx) {
  if (!read_pfc_) return;
  const MonoTime now = ctx.clock().Now();
  for (const auto& [netdev, rail] : rails_) {
    HostPfcState& state = host_pfc_[netdev];
    if (state.read_at && now - *state.read_at < kHostPfcEvery) continue;
    state.read_at = now;
    StatusOr<std::optional<HostPfc>> read = read_pfc_(netdev);
    std::optional<HostPfc> now_known = read.ok() ? *read : std::nullopt;
    if (state.pfc != now_known) cached_findings_.reset();
    state.pfc = now_known;
    if (read.ok()) continue;
    if (read.status().code() != StatusCode::kNotFound) {
      ctx.CountSourceError("dcb");
      spdlog::debug("DCB: cannot read the PFC configuration of {}: {}", netdev,
                    read.status().ToString());
    }
  }
}

void LldpComponent::Open(MonitorContext& ctx, const std::string& netdev, Receiver& receiver) {
  StatusOr<std::unique_ptr<LldpSocket>> socket = open_(netdev);
  if (!socket.ok()) {
    receiver.retry_at = ctx.clock().Now() + options_.reopen_after;
    bool first = receiver.error.empty();
    receiver.error = socket.status().ToString();
    // A netdev that is not in this network namespace (a recorded host) is not a failed read.
    // Otherwise (no CAP_NET_RAW, mostly) the first failure of a run is counted and logged; the
    // retries that fail the same way are quiet.
    if (socket.status().code() == StatusCode::kNotFound || !first) return;
    ctx.CountSourceError("lldp");
    spdlog::warn("LLDP: cannot receive on {}: {} (retried every {} s)", netdev, receiver.error,
                 std::chrono::duration_cast<std::chrono::seconds>(options_.reopen_after).count());
    return;
  }
  receiver.socket = std::move(socket).value();
  cached_findings_.reset();
  receiver.retry_at.reset();
  receiver.error.clear();
  table_.Track(netdev);
  if (!listening_since_) listening_since_ = ctx.clock().Now();
  int fd = receiver.socket->fd();
  if (fd >= 0)
    ctx.loop().WatchFd(fd, [this, &ctx, netdev](short) {
      auto it = receivers_.find(netdev);
      if (it != receivers_.end() && it->second.socket) Read(ctx, netdev, it->second);
    });
}

void LldpComponent::Read(MonitorContext& ctx, const std::string& netdev, Receiver& receiver) {
  StatusOr<LldpReceived> received = receiver.socket->Read(options_.frames_per_wakeup);
  if (!received.ok()) {  // the netdev went away under the socket: open again later
    cached_findings_.reset();
    ctx.CountSourceError("lldp");
    if (receiver.socket->fd() >= 0) ctx.loop().UnwatchFd(receiver.socket->fd());
    receiver.socket.reset();
    receiver.error = received.status().ToString();
    receiver.retry_at = ctx.clock().Now() + options_.reopen_after;
    return;
  }
  MonoTime now = ctx.clock().Now();
  bool changed = false;
  for (const std::vector<uint8_t>& frame : received->frames) {
    LldpFrameOutcome outcome = table_.Observe(netdev, frame, now);
    changed =
        changed || outcome == LldpFrameOutcome::kAccepted || outcome == LldpFrameOutcome::kShutdown;
  }
  table_.CountKernelDrops(netdev, received->kernel_drops);
  // A repeat of the same frame (every 30 s from a switch) or a dropped one changes no neighbor:
  // its counters are read when /metrics is asked for; nothing to report or publish.
  if (changed) {
    cached_findings_.reset();
    ReportChanges(ctx);
    ctx.RequestPublish();
  }
}

void LldpComponent::ReportChanges(MonitorContext& ctx) {
  for (const auto& [netdev, neighbor] : table_.neighbors()) {
    auto reported = reported_.find(netdev);
    if (reported == reported_.end() || !SameFarEnd(reported->second, neighbor.frame))
      mtus_[netdev] = read_mtu_ ? read_mtu_(netdev) : std::nullopt;
    // Compared with the far end this rail had last, also when that one left or expired in
    // between (a cable moved: the old switch's frames stop, the new switch's start).
    auto last = last_far_end_.find(netdev);
    const LldpFrame* before = reported != reported_.end()   ? &reported->second
                              : last != last_far_end_.end() ? &last->second.frame
                                                            : nullptr;
    if (before != nullptr && !SameFarEnd(*before, neighbor.frame)) {
      ctx.RecordEvent(netdev + ": LLDP neighbor changed from " + DescribeFarEnd(*before) + " to " +
                          DescribeFarEnd(neighbor.frame) + " (recabled or swapped?)",
                      Severity::kWarning);
    } else if (reported == reported_.end()) {
      ctx.RecordEvent(netdev + ": LLDP neighbor " + DescribeFarEnd(neighbor.frame),
                      Severity::kInfo);
    }
    reported_[netdev] = neighbor.frame;
    last_far_end_[netdev] = {neighbor.frame, {neighbor.bytes, neighbor.last_seen}};
  }
  // A neighbor removed by its shutdown frame (TTL 0).
  for (auto it = reported_.begin(); it != reported_.end();) {
    if (table_.neighbor(it->first) == nullptr) {
      ctx.RecordEvent(it->first + ": LLDP neighbor " + DescribeFarEnd(it->second) + " left (TTL 0)",
                      Severity::kInfo);
      it = reported_.erase(it);
    } else {
      ++it;
    }
  }
}

void LldpComponent::ReadAll(MonitorContext& ctx) {
  for (auto& [netdev, receiver] : receivers_)
    if (receiver.socket) Read(ctx, netdev, receiver);
}

RailCablingResult LldpComponent::CheckCabling() const {
  std::vector<CabledRail> rails;
  for (const auto& [netdev, receiver] : receivers_) {
    if (!receiver.socket) continue;
    auto rail = rails_.find(netdev);
    if (rail == rails_.end()) continue;
    const LldpNeighbor* neighbor = table_.neighbor(netdev);
    rails.push_back({{netdev, rail->second.first, rail->second.second, 0},
                     neighbor != nullptr ? &neighbor->frame : nullptr});
  }
  NumberRails(rails);
  return CheckRailCabling(
      {std::move(rails), options_.rail_plan ? &*options_.rail_plan : nullptr, options_.node_name});
}

void LldpComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  out.DeclareGauges({
      {kNetdevPfcEnabledMetric,
       "1 where the host's own PFC configuration of the netdev (DCB netlink, IEEE 802.1Qaz) "
       "enables PFC on the priority, 0 where not; absent where the driver has no DCB."},
      {kRailCabledAsPlannedMetric,
       "1 when the rail's LLDP neighbor is the switch and port the rail plan (--rail-plan) "
       "names, 0 when it is another; absent without a plan, a plan line or a neighbor."},
      {kRailNeighborInfoMetric,
       "1 for the rail's current LLDP neighbor (the sender of the newest valid frame; one per "
       "netdev), labelled with its chassis ID, port ID, system name and port description."},
      {kRailNeighborAgeSecondsMetric,
       "Seconds since the rail's LLDP neighbor sent its last frame."},
      {kRailNeighborPfcEnabledMetric,
       "1 where the neighbor's 802.1Qaz PFC configuration TLV enables PFC on the priority, 0 where "
       "it does not; absent without that TLV."},
      {kRailNeighborRocePriorityMetric,
       "The priority the neighbor's 802.1Qaz application priority TLV gives RoCE v2 (UDP 4791)."},
      {kRailNeighborMaxFrameSizeBytesMetric,
       "The neighbor port's maximum frame size (IEEE 802.3 TLV), in bytes."},
      {kLldpReceivingMetric,
       "1 while rocewatch receives LLDP on the netdev, 0 when its socket could not "
       "be opened (see rocewatch_source_errors_total{source=\"lldp\"})."},
  });
  out.Declare(kLldpFramesTotalMetric,
              "LLDP frames received on the netdev (valid, invalid or dropped).",
              prometheus::MetricType::Counter);
  out.Declare(kLldpFramesInvalidTotalMetric,
              "LLDP frames received on the netdev that did not parse.",
              prometheus::MetricType::Counter);
  out.Declare(kLldpFramesDroppedTotalMetric,
              "LLDP frames dropped unread: beyond the per-netdev rate cap, or by the kernel for a "
              "full receive queue.",
              prometheus::MetricType::Counter);
  MonoTime now = ctx.clock().Now();
  for (const auto& [netdev, state] : host_pfc_)
    if (state.pfc)
      for (int priority = 0; priority < 8; ++priority)
        out.Gauge(kNetdevPfcEnabledMetric, "",
                  {{"netdev", netdev}, {"priority", std::to_string(priority)}},
                  (state.pfc->enabled >> priority) & 1);
  if (options_.rail_plan)
    for (const RailCablingVerdict& verdict : CheckCabling().verdicts)
      out.Gauge(kRailCabledAsPlannedMetric, "", {{"netdev", verdict.netdev}},
                verdict.as_planned ? 1 : 0);
  for (const auto& [netdev, receiver] : receivers_)
    out.Gauge(kLldpReceivingMetric, "", {{"netdev", netdev}}, receiver.socket ? 1 : 0);
  for (const auto& [netdev, counters] : table_.counters()) {
    out.Counter(kLldpFramesTotalMetric, "", {{"netdev", netdev}},
                static_cast<double>(counters.frames));
    out.Counter(kLldpFramesInvalidTotalMetric, "", {{"netdev", netdev}},
                static_cast<double>(counters.invalid));
    out.Counter(kLldpFramesDroppedTotalMetric, "", {{"netdev", netdev}},
                static_cast<double>(counters.dropped));
  }
  for (const auto& [netdev, neighbor] : table_.neighbors()) {
    auto rail = rails_.find(netdev);
    NeighborLabels labels = LabelsOf(neighbor.frame);
    out.Gauge(kRailNeighborInfoMetric, "",
              {{"device", rail == rails_.end() ? "" : rail->second.first},
               {"port", rail == rails_.end() ? "" : std::to_string(rail->second.second)},
               {"netdev", netdev},
               {"chassis_id", std::move(labels.chassis_id)},
               {"port_id", std::move(labels.port_id)},
               {"system_name", std::move(labels.system_name)},
               {"port_description", std::move(labels.port_description)}},
              1);
    out.Gauge(kRailNeighborAgeSecondsMetric, "", {{"netdev", netdev}},
              ToSeconds(now - neighbor.last_seen));
    const LldpFrame& f = neighbor.frame;
    if (f.pfc)
      for (int priority = 0; priority < 8; ++priority)
        out.Gauge(kRailNeighborPfcEnabledMetric, "",
                  {{"netdev", netdev}, {"priority", std::to_string(priority)}},
                  (f.pfc->enabled >> priority) & 1);
    if (std::optional<uint8_t> roce = f.RoceV2Priority())
      out.Gauge(kRailNeighborRocePriorityMetric, "", {{"netdev", netdev}}, *roce);
    if (f.max_frame_size)
      out.Gauge(kRailNeighborMaxFrameSizeBytesMetric, "", {{"netdev", netdev}}, *f.max_frame_size);
  }
}

void LldpComponent::AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
  // Findings are asked for on every poll and every publish. With neighbors they depend only on
  // what changes the cache (neighbors, sockets, MTUs, the host's PFC): kept until then. Without
  // any neighbor the one possible finding is lldp_absent, which needs only the open sockets.
  if (!table_.neighbors().empty() && cached_findings_) {
    out.insert(out.end(), cached_findings_->begin(), cached_findings_->end());
    return;
  }
  FabricObservation observation;
  if (table_.neighbors().empty()) {
    size_t open = 0;
    for (const auto& [netdev, receiver] : receivers_) open += receiver.socket != nullptr;
    if (open == 0 || !listening_since_ || ctx.clock().Now() - *listening_since_ < kLldpAbsentAfter)
      return;
  }
  for (const auto& [netdev, receiver] : receivers_) {
    if (!receiver.socket) continue;
    RailFarEnd rail{.netdev = netdev,
                    .port = "",
                    .neighbor = nullptr,
                    .mtu = std::nullopt,
                    .host_pfc_enabled = std::nullopt};
    if (auto r = rails_.find(netdev); r != rails_.end())
      rail.port = r->second.first + "/" + std::to_string(r->second.second);
    if (const LldpNeighbor* n = table_.neighbor(netdev)) rail.neighbor = &n->frame;
    if (auto m = mtus_.find(netdev); m != mtus_.end()) rail.mtu = m->second;
    if (auto p = host_pfc_.find(netdev); p != host_pfc_.end() && p->second.pfc)
      rail.host_pfc_enabled = p->second.pfc->enabled;
    observation.rails.push_back(std::move(rail));
  }
  if (listening_since_) observation.listening_for = ctx.clock().Now() - *listening_since_;
  std::vector<Finding> findings = CheckFabric(observation);
  if (!table_.neighbors().empty()) {
    std::vector<Finding> cabling = CheckCabling().findings;
    findings.insert(findings.end(), cabling.begin(), cabling.end());
    cached_findings_ = findings;
  }
  out.insert(out.end(), findings.begin(), findings.end());
}

void LldpComponent::Stop(MonitorContext& ctx) {
  // Frames read since the last poll are in the state file written after this.
  if (keep_incidents_) ProvideFarEnds(ctx);
  for (auto& [netdev, receiver] : receivers_)
    if (receiver.socket && receiver.socket->fd() >= 0) ctx.loop().UnwatchFd(receiver.socket->fd());
  receivers_.clear();
}

}  // namespace rocewatch
