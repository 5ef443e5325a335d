#include "inventory/device_presence_component.h"

#include "export/daemon_findings.h"
#include "inventory/inventory_metric_names.h"

namespace rocewatch {
namespace {

constexpr char kDisappearedCheck[] = "device_disappeared";

// "device=mlx5_1 port=1 netdev=ens2f0np0" ("netdev=-" without one).
std::string PresenceFields(const PortKey& port, const std::string& netdev) {
  return "device=" + port.device + " port=" + std::to_string(port.port) +
         " netdev=" + (netdev.empty() ? "-" : netdev);
}

}  // namespace

DevicePresenceComponent::DevicePresenceComponent(PortExpected expected)
    : detector_(std::move(expected)) {}

StateDeclaration DevicePresenceComponent::declaration() const {
  StateDeclaration declared;
  if (keep_incidents_) {
    declared.provides = {StatePart::kSeenPorts};
    declared.reads = {StatePart::kRestoredIncidents};
  }
  return declared;
}

Status DevicePresenceComponent::Start(MonitorContext& ctx) {
  if (!keep_incidents_) return Status::Ok();
  // Before the first snapshot: the ports are judged against it as the previous run left them.
  const std::optional<RestoredIncidents>* restored = ctx.state().restored_incidents();
  if (restored != nullptr && *restored) {
    const RestoredIncidents& from = **restored;
    for (const auto& [key, seen] : from.incidents.seen_ports) {
      if (!seen.missing_since) continue;
      restored_pending_.insert(key);
      ++restore_counts_[{kDisappearedCheck, "checking"}];
    }
    detector_.Restore(from.incidents.seen_ports, from.written_at_unix_seconds);
  }
  ProvideSeenPorts(ctx);
  return Status::Ok();
}

void DevicePresenceComponent::OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
  for (const PresenceChange& change : detector_.Observe(snapshot, ctx.clock().UnixSeconds()))
    Report(ctx, change);
  // A restored missing port not reported back or acknowledged by the first snapshot is still
  // missing: confirmed, with the since it had.
  if (!restored_pending_.empty()) {
    restore_counts_[{kDisappearedCheck, "checking"}] -= restored_pending_.size();
    restore_counts_[{kDisappearedCheck, "confirmed"}] += restored_pending_.size();
    restored_pending_.clear();
  }
  if (keep_incidents_) ProvideSeenPorts(ctx);
}

void DevicePresenceComponent::Report(MonitorContext& ctx, const PresenceChange& change) {
  const double now = ctx.clock().UnixSeconds();
  const std::string fields = PresenceFields(change.port, change.netdev);
  std::string since;
  if (change.missing_since) since = " since=" + FormatUtc(*change.missing_since, false);
  if (restored_pending_.erase(change.port) > 0) {
    --restore_counts_[{kDisappearedCheck, "checking"}];
    ++restore_counts_[{kDisappearedCheck,
                       change.kind == PresenceChange::Kind::kReturned ? "healed" : "dropped"}];
  }
  switch (change.kind) {
    case PresenceChange::Kind::kDisappeared:
      ctx.RecordEvent(std::string(kDisappearedCheck) + " " + fields + since +
                          (change.unwatched ? " (vanished while rocewatch was not running: present "
                                              "when the daemon last wrote its state)"
                                            : " (the RDMA port left sysfs)") +
                          ": critical until it returns or the rail plan no longer lists it",
                      Severity::kWarning);
      return;
    case PresenceChange::Kind::kReturned: {
      std::string line = "device_returned " + fields;
      if (change.returned_as) line += " as=" + change.returned_as->ToString();
      if (change.missing_since)
        line += " missing" + since + " (back after " +
                FormatMissingFor(now - *change.missing_since) + ")";
      ctx.RecordEvent(line, Severity::kInfo);
      return;
    }
    case PresenceChange::Kind::kAcknowledged:
      ctx.RecordEvent("device_acknowledged_gone " + fields + (since.empty() ? "" : " missing") +
                          since + ": the rail plan no longer lists it; forgotten",
                      Severity::kInfo);
      return;
  }
}

void DevicePresenceComponent::ProvideSeenPorts(MonitorContext& ctx) {
  (void)ctx.state_writer().SetSeenPorts({detector_.ports(), restore_counts_});
}

void DevicePresenceComponent::AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
  (void)ctx;
  out.Declare(kDeviceMissingMetric,
              "1 while an RDMA port seen on this boot is missing from sysfs (until it returns or "
              "the rail plan no longer lists it), 0 for the other ports seen.",
              prometheus::MetricType::Gauge);
  for (const auto& [key, seen] : detector_.ports())
    out.Gauge(kDeviceMissingMetric, "",
              {{"device", key.device}, {"port", std::to_string(key.port)}, {"netdev", seen.netdev}},
              seen.missing_since ? 1 : 0);
}

void DevicePresenceComponent::AppendFindings(const MonitorContext& ctx,
                                             std::vector<Finding>& out) const {
  std::vector<Finding> missing = detector_.Findings(ctx.clock().UnixSeconds());
  out.insert(out.end(), missing.begin(), missing.end());
}

}  // namespace rocewatch
