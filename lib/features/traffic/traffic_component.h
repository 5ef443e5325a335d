#pragma once
// The traffic detector in the daemon: feeds every snapshot's counters (and the netdev carriers the
// netlink component keeps) to a TrafficDetector, exports
// rocewatch_traffic_rate_bytes_per_second, rocewatch_traffic_baseline_bytes_per_second and
// rocewatch_traffic_state and rocewatch_traffic_collapsed_node_wide, reports state changes as
// events and degraded/collapsed rails as findings, naming the rail's consumers. With consumers
// (UseConsumers), each rail's consumer knowledge feeds the detector (a rail nobody holds is idle),
// and traffic on a rail nobody is known to hold is provided on the node state as unexplained and
// asks for a full consumer scan. docs/detection.md.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "component/monitor_component.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {

// A rail state written longer ago than this is not restored: the job may have ended, restarted
// or moved meanwhile. 10 minutes covers a DaemonSet rollout or an OOM restart with backoff.
inline constexpr Duration kRailRestoreTrust = std::chrono::minutes(10);

// Rounds a baseline to two significant digits: the state file is rewritten when a baseline moves
// by more than a few percent, not on every poll's new median.
double RoundBaseline(double bytes_per_second);

class TrafficComponent final : public MonitorComponent {
 public:
  // REQUIRES: options.Validate().ok(). Snapshots taken less than `min_interval` after the last one
  // fed to the detector are skipped (the daemon takes extra snapshots after link and address
  // events; their counters simply count in the next interval). Half the poll interval is right.
  TrafficComponent(TrafficOptions options, Duration min_interval);

  // Read the rails' consumers from the node state (kConsumers, this poll's: the consumers
  // component runs first) and provide kTrafficUnexplained and kConsumerScanRequest (which the
  // consumers component reads at the next poll); without it every rail's consumers are unknown.
  // REQUIRES: before Monitor::Start.
  void UseConsumers() { use_consumers_ = true; }

  // Starts ports from the running daemon's view (TrafficDetector::Resume): `rocewatch diagnose
  // --watch`. REQUIRES: before the first snapshot.
  void Resume(const std::map<PortKey, PortTrafficResume>& ports);

  // Keep the rails' traffic state across a restart: provide the rails worth resuming on the node
  // state (kRailIncidents, which the state file keeps; baselines rounded by RoundBaseline) and, at
  // Start, resume those of a previous run (kRestoredIncidents, provided by the GID drift
  // component) unless the file is older than kRailRestoreTrust. A rail that was degraded or
  // collapsed is an incident being checked until the detector has judged it on a measured rate
  // (the second snapshot: the first has no rate); what became of it is counted in the part:
  // check "traffic_collapsed" or "traffic_degraded", verdict "checking", "confirmed" (still in
  // that state), "healed" (left it: an event said so) or "dropped" (the port is gone).
  // REQUIRES: before Monitor::Start.
  void KeepIncidents() { keep_incidents_ = true; }

  std::string_view name() const override { return "traffic"; }
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;

  const TrafficDetector& detector() const { return detector_; }
  // One line for a person watching: "mlx5_0/1 10.0 GB/s normal | mlx5_1/1 0 B/s collapsed"
  // ("?" for an unknown rate); empty without ports.
  std::string RatesLine() const;

 private:
  TrafficDetector detector_;
  Duration min_interval_;
  std::optional<MonoTime> last_fed_;
  std::map<PortKey, TrafficState> last_states_;
  bool use_consumers_ = false;
  // Restored rails in trouble not judged yet -> the restored state.
  std::map<PortKey, TrafficState> restored_pending_;
  RestoreCounts restore_counts_;
  size_t rails_not_trusted_ = 0;
  bool keep_incidents_ = false;

  void RestoreRails(MonitorContext& ctx, const RestoredIncidents& restored);
  void JudgeRestored(MonitorContext& ctx);
  void ProvideIncidents(MonitorContext& ctx);
  // Provides which devices carry traffic no known consumer explains, and asks for a full scan
  // when one does.
  void ProvideUnexplained(MonitorContext& ctx, const std::vector<PortTrafficSample>& samples);
};

}  // namespace rocewatch
