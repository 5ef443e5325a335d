#pragma once
// The GID drift feature of the daemon. After every snapshot it runs the drift detector on the
// ports' GID tables, reports each drift as one structured event line (ctx.RecordEvent: logged, and
// listed by diagnose --watch), e.g.
//   gid_drift device=mlx5_0 port=1 netdev=eth0 gid=0000:...:0a00:0001 type=roce_v2 old_index=3
//   new_index=5
// persists the state (so a move while
// the daemon is down is seen after a restart), and exports:
//   rocewatch_gid_drift_events_total{device,port,netdev}
//   rocewatch_gid_last_drift_timestamp_seconds{device,port,netdev}
//   rocewatch_gid_last_drift_info{device,port,netdev,gid,type,old_index,new_index}
//   rocewatch_gid_index_mismatch{device,port,netdev}        (with --expected-gid-index)
//   rocewatch_gid_holes{device,port}                         (empty slots below a non-default GID)
//   rocewatch_state_persistence_failures_total               (unusable state file, failed writes)
//   rocewatch_state_persistence_ok                           (with a state file: 1 while kept)
// With the verbs GID source it also puts the devices' async fds on the loop: GID_CHANGE,
// PORT_ACTIVE and PORT_ERR request a snapshot (after the Monitor's settle delay, coalesced).
//
// Threading: the event-loop thread. Lifetime: `store` and `verbs_devices` must outlive this.

#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "component/monitor_component.h"
#include "gid_drift/gid_drift_detector.h"
#include "gid_drift/gid_state_store.h"
#include "verbs/verbs_device_set.h"
#include "verbs/verbs_event_watcher.h"

namespace rocewatch {

struct GidDriftOptions {
  std::optional<uint32_t> expected_gid_index;  // --expected-gid-index
  // How often verbs devices are re-enumerated to pick up new ones (verbs source only).
  Duration verbs_rescan_interval = std::chrono::seconds(30);
};

class GidDriftComponent final : public MonitorComponent {
 public:
  // A drift is a (critical) finding for this long after it happened: the alert's window.
  static constexpr double kDriftFindingSeconds = 30 * 60;

  // `verbs_devices` is null unless GIDs are read through verbs.
  GidDriftComponent(GidStateStore& store, VerbsDeviceSet* verbs_devices, GidDriftOptions options);
  // The daemon's: state in `state_file` (empty: no persistence) written through `writer` (the
  // host's: HostEnv::state_writer), stamped with <procfs_root>/sys/kernel/random/boot_id.
  // REQUIRES: fs and writer outlive the component.
  static std::unique_ptr<GidDriftComponent> ForDaemon(const FileSystem& fs, StateFileWriter& writer,
                                                      const std::string& procfs_root,
                                                      const std::string& state_file,
                                                      VerbsDeviceSet* verbs_devices,
                                                      GidDriftOptions options);
  ~GidDriftComponent() override;

  // Who uses each device: drift events and findings name the consumers that hold the stale entry
  // and what happens to them (gid_drift/stale_gid_impact.h).
  // Reads the node state's consumers (this poll's). REQUIRES: before Monitor::Start.
  void UseConsumers() { use_consumers_ = true; }

  std::string_view name() const override { return "gid_drift"; }
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;
  void Stop(MonitorContext& ctx) override;

  // What the state file keeps beside the GID state (daemon/restart_state.h). Once set, the file is
  // written when the owner of the source calls Persist (and at Stop), no longer after each of
  // this component's snapshots: the incidents are complete only after every component ran.
  void SetIncidentSource(std::function<PersistedIncidents()> source) {
    incident_source_ = std::move(source);
  }
  // What Start restored beyond the GID state; moved out by the first call.
  struct RestoredIncidents {
    bool restored = false;  // same boot, usable file
    PersistedIncidents incidents;
    double written_at_unix_seconds = 0;
    std::string note;  // why the file's incidents were not used, "" if they were
  };
  RestoredIncidents TakeRestoredIncidents() { return std::move(restored_incidents_); }
  // Writes the state file if what it would hold changed since the last write, or the last write
  // is kRefreshSeconds old (so that the file's time says when the daemon was last alive). A
  // failed write is counted and warned about once per failure episode.
  void Persist(MonitorContext& ctx);
  static constexpr double kRefreshSeconds = 120;

  const GidDriftState& state() const { return detector_.state(); }
  // Snapshots handed to the detector: one whose tables equal the last ones observed (GID tables
  // carried forward between two sysfs reads, or unchanged) is not, since the detector would find
  // nothing new in it (benchmarks, tests).
  uint64_t observations() const { return observations_; }

 private:
  // Set by ForDaemon only; declared before store_ so that it outlives the reference.
  std::unique_ptr<GidStateStore> owned_store_;
  GidStateStore& store_;
  VerbsDeviceSet* verbs_devices_;
  GidDriftOptions options_;
  GidDriftDetector detector_;
  std::unique_ptr<VerbsEventWatcher> watcher_;
  std::optional<GidDriftState> saved_;  // what the state file holds, to skip identical writes
  PersistedIncidents saved_incidents_;
  double saved_at_ = 0;  // Unix time of the last write (0: none this run)
  std::function<PersistedIncidents()> incident_source_;
  RestoredIncidents restored_incidents_;
  bool last_save_failed_ = false;
  bool observed_ = false;  // a snapshot was observed: the state is worth persisting
  // Latest evaluation, for metrics and findings.
  std::vector<GidIndexMismatch> mismatches_;
  std::map<GidPortKey, std::vector<uint32_t>> holes_;
  bool use_consumers_ = false;
  std::vector<GidPortTable> last_tables_;  // the detector's last input
  uint64_t observations_ = 0;
};

// The ports of a snapshot as the detector's input: every port, its primary netdev and GIDs.
std::vector<GidPortTable> GidPortTablesOf(const NodeSnapshot& snapshot);

}  // namespace rocewatch
