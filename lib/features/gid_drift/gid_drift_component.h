#pragma once
// The GID drift feature of the daemon. After every snapshot it runs the drift detector on the
// ports' GID tables, reports each drift as one structured event line (ctx.RecordEvent: logged, and
// listed by diagnose --watch), e.g.
//   gid_drift device=mlx5_0 port=1 netdev=eth0 gid=0000:...:0a00:0001 type=roce_v2 old_index=3
//   new_index=5
// persists the state (so a move while the daemon is down is seen after a restart) in the state
// file, which also keeps the other features' open incidents (GidDriftOptions::kept_incidents:
// their parts of the node state) and gives them back at the next start of the same boot, and
// exports:
//   rocewatch_gid_drift_events_total{device,port,netdev}
//   rocewatch_gid_last_drift_timestamp_seconds{device,port,netdev}
//   rocewatch_gid_last_drift_info{device,port,netdev,gid,type,old_index,new_index}
//   rocewatch_gid_index_mismatch{device,port,netdev}        (with --expected-gid-index)
//   rocewatch_gid_holes{device,port}                         (empty slots below a non-default GID)
//   rocewatch_state_persistence_failures_total               (unusable state file, failed writes)
//   rocewatch_state_persistence_ok                           (with a state file: 1 while kept)
//   rocewatch_restored_incidents{check,status}               (with kept_incidents)
// With the verbs GID source it also puts the devices' async fds on the loop: GID_CHANGE,
// PORT_ACTIVE and PORT_ERR request a snapshot (after the Monitor's settle delay, coalesced).
//
// Threading: the event-loop thread. Lifetime: `store` and `verbs_devices` must outlive this.

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
  // The parts of the node state (of kKeptIncidentParts, gid_drift/kept_incidents.h) whose open
  // incidents the state file keeps beside the GID state: read (reads_previous) after every poll
  // and at Stop, so each must have its provider in the Monitor. With any, the first-seen times of
  // open findings are kept too, and rocewatch_restored_incidents is exported.
  StateParts kept_incidents = {};
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
  // Provides kRestoredIncidents: what a usable state file of this boot kept of the previous run's
  // open incidents, from Start until the end of the first poll (and gives the Monitor their
  // first-seen times). Reads kConsumers with UseConsumers, and the kept_incidents parts.
  StateDeclaration declaration() const override;
  Status Start(MonitorContext& ctx) override;
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;
  void Stop(MonitorContext& ctx) override;

  // The state file is written when what it would hold changed (with kept_incidents also every
  // kRefreshSeconds, so that its time says when the daemon was last alive), and at Stop: with
  // kept_incidents after every poll, once every component ran; without, after this component's
  // snapshot. A failed write is counted and warned about once per failure episode.
  void AfterPoll(MonitorContext& ctx) override;
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
  double saved_at_ = 0;     // Unix time of the last write (0: none this run)
  bool restoring_ = false;  // Start restored incidents: reported after the first poll
  double restored_age_seconds_ = 0;
  // First-seen times of the previous run, kept in what is written until the Monitor has
  // published the first poll's findings with them.
  MonitorContext::FindingSince restored_since_;
  uint64_t polls_ = 0;
  bool last_save_failed_ = false;
  bool observed_ = false;  // a snapshot was observed: the state is worth persisting
  // Latest evaluation, for metrics and findings.
  std::vector<GidIndexMismatch> mismatches_;
  std::map<GidPortKey, std::vector<uint32_t>> holes_;
  bool use_consumers_ = false;
  std::vector<GidPortTable> last_tables_;  // the detector's last input
  uint64_t observations_ = 0;

  void Persist(MonitorContext& ctx);
  void RestoreIncidents(MonitorContext& ctx, RestoredIncidents restored, const std::string& note);
};

// The ports of a snapshot as the detector's input: every port, its primary netdev and GIDs.
std::vector<GidPortTable> GidPortTablesOf(const NodeSnapshot& snapshot);

}  // namespace rocewatch
