#pragma once
// RDMA ports that disappear while the daemon runs (docs/detection.md, "A device that
// disappears"): runs the DevicePresenceDetector (inventory/device_presence_detector.h) on every
// snapshot and reports
//   - the critical finding device_disappeared for each missing port, held until the port returns
//     or is acknowledged gone (the rail plan no longer lists it);
//   - rocewatch_device_missing{device,port,netdev}: 1 while the port is missing, 0 for every other
//     port seen on this boot;
//   - one event when a port disappears (warning), returns or is acknowledged gone (info):
//       device_disappeared device=mlx5_1 port=1 netdev=ens2f0np0 since=2026-12-07T16:02:11Z (...)
// With KeepIncidents, the ports seen on this boot (each missing one with since when) are its part
// of the node state (StatePart::kSeenPorts), which the state file keeps: a restart on the same
// boot still reports a port that vanished before it, or while no daemon ran.
//
// Threading: the event-loop thread.

#include <set>

#include "component/monitor_component.h"
#include "inventory/device_presence_detector.h"

namespace rocewatch {

class DevicePresenceComponent final : public MonitorComponent {
 public:
  // `expected` null: every port is expected until it returns (no rail plan).
  explicit DevicePresenceComponent(PortExpected expected = nullptr);
  // Provides the seen ports on the node state and resumes from the restored ones.
  // REQUIRES: before Start.
  void KeepIncidents() { keep_incidents_ = true; }

  std::string_view name() const override { return "device_presence"; }
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;

  const DevicePresenceDetector& detector() const { return detector_; }

 private:
  void Report(MonitorContext& ctx, const PresenceChange& change);
  void ProvideSeenPorts(MonitorContext& ctx);

  DevicePresenceDetector detector_;
  bool keep_incidents_ = false;
  // Restored missing ports not judged yet, and what became of the restored ones.
  std::set<PortKey> restored_pending_;
  RestoreCounts restore_counts_;
};

}  // namespace rocewatch
