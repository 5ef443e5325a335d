#pragma once
// The Monitor runs the daemon's observation cycle on the event loop:
//   - a snapshot every `interval`, and one `settle` after any component asks for one (bursts of
//     requests coalesce into one snapshot);
//   - after each snapshot every component's OnSnapshot, in the order their declarations on the node
//     state give (component/component_order.h), then every component's AfterPoll in that order,
//     then the findings are evaluated (when each
//     was first seen) and the change sink is told: the exposition and the findings document are
//     built from BuildExposition(), timed_findings() and recent_events() when someone asks for
//     them (core/on_demand.h), not after every poll;
//   - its own metrics: build info, last poll time, poll duration, source errors.
// It owns the node state (component/node_state.h), provides its snapshot and RNIC netdevs parts,
// and gives each component a context of its own (daemon/component_context.h) that shows it the
// parts it declared.
//
// Threading: everything on the loop thread except last_poll_unix(), which the /healthz handler
// reads from the HTTP server's threads.

#include <prometheus/metric_family.h>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "component/monitor_component.h"
#include "daemon/component_context.h"
#include "daemon/defaults.h"
#include "daemon/snapshot_source.h"
#include "export/daemon_findings.h"

namespace rocewatch {

struct MonitorOptions {
  Duration interval = defaults::kPollInterval;
  // Delay between an event (address, link, verbs GID_CHANGE) and the snapshot it triggers: the
  // kernel updates GID tables on a workqueue shortly after the address event, and reading sysfs
  // while it does so can itself move an index (docs/design.md, "Observer effect").
  Duration settle = defaults::kSettle;
};

// Why a snapshot was taken: the periodic timer, or a request (an event, a test).
enum class SnapshotTrigger { kPeriodic, kRequested };

class Monitor final : public MonitorContext {
 public:
  // Called on every publish and every recorded event: what BuildExposition(), timed_findings()
  // or recent_events() give has changed (for what is built when someone asks, core/on_demand.h).
  using ChangeSink = std::function<void()>;
  // Called after every snapshot, with what triggered it.
  using SnapshotObserver = std::function<void(const NodeSnapshot&, SnapshotTrigger trigger)>;
  // Called for every RecordEvent, with the Unix time it was recorded.
  using EventObserver = std::function<void(double unix_seconds, std::string_view what)>;
  // Events kept for recent_events(), oldest dropped first.
  static constexpr size_t kRecentEvents = 256;

  // REQUIRES: loop and source outlive the Monitor.
  Monitor(EventLoop& loop, SnapshotSource& source, MonitorOptions options);
  ~Monitor() override;

  void AddComponent(std::unique_ptr<MonitorComponent> component);
  void SetChangeSink(ChangeSink sink) { change_sink_ = std::move(sink); }
  void SetSnapshotObserver(SnapshotObserver observer) { observer_ = std::move(observer); }
  void SetEventObserver(EventObserver observer) { event_observer_ = std::move(observer); }

  // Orders the components by their declarations, starts them, takes the first snapshot and
  // schedules the periodic ones. Errors: the declarations cannot be ordered (a part read that no
  // one provides, a part provided twice, a cycle: InvalidArgument, nothing started); the first
  // snapshot failed as a whole (e.g. the sysfs root is unreadable).
  Status Start();
  // The first step of Start, for a caller that reports its error apart from a failed snapshot:
  // orders the components by their declarations (InvalidArgument, one line, if it cannot).
  Status OrderComponents();
  // Stops the components (flush state). Idempotent.
  void Stop();

  // Takes a snapshot now, runs the components and publishes. Returns the source's status.
  Status PollNow(std::string_view reason) { return Poll(reason, SnapshotTrigger::kRequested); }

  // Unix time of the last completed poll (0 before the first). Thread-safe.
  double last_poll_unix() const { return last_poll_unix_.load(std::memory_order_relaxed); }
  uint64_t polls() const { return polls_; }
  // Findings of every component for the current state.
  std::vector<Finding> CurrentFindings() const;
  // The exposition as it would be published now.
  std::vector<prometheus::MetricFamily> BuildExposition() const;
  // The findings of the last publish, each with when it was first and last seen.
  const std::vector<TimedFinding>& timed_findings() const { return timed_findings_; }
  // The last kRecentEvents events, oldest first.
  const std::deque<RecordedEvent>& recent_events() const { return recent_events_; }
  // The latest snapshot; empty (no devices) before the first poll.
  const NodeSnapshot& latest_snapshot() const { return state_.snapshot; }
  // Netdevs the RDMA inventory ties to ports: port netdevs and GID ndevs (VLAN and bond uppers).
  const std::set<std::string>& rnic_netdevs() const { return state_.rnic_netdevs; }

  // MonitorContext
  EventLoop& loop() override { return loop_; }
  const Clock& clock() const override { return loop_.clock(); }
  void RequestSnapshot(std::string_view reason) override;
  void RequestPublish() override;
  // The Monitor's view reads every part and its writer writes none (it sets its own parts itself).
  const NodeStateView& state() const override { return view_; }
  NodeStateWriter& state_writer() override { return writer_; }
  void CountSourceError(std::string_view source, uint64_t count) override;
  void RecordEvent(std::string_view what, Severity severity) override;
  FindingSince findings_since() const override { return finding_since_; }
  void RestoreFindingsSince(FindingSince since) override { restored_since_ = std::move(since); }

 private:
  Status Poll(std::string_view reason, SnapshotTrigger trigger);
  void SchedulePeriodic(MonoTime at);
  void Publish();
  void AppendOwnMetrics(MetricFamilies& out) const;

  EventLoop& loop_;
  SnapshotSource& source_;
  const MonitorOptions options_;
  // In registration order (metrics and findings keep it); order_ is the OnSnapshot order.
  std::vector<std::unique_ptr<MonitorComponent>> components_;
  std::vector<std::unique_ptr<ComponentContext>> contexts_;
  std::vector<size_t> order_;
  std::vector<bool> component_started_;
  // rocewatch_component_success / rocewatch_component_duration_seconds, by component index: the
  // component's last OnSnapshot counted no source error, it was Healthy() after it (and its
  // Start succeeded), and its time.
  struct ComponentHealth {
    bool success = false;
    double seconds = 0;
  };
  std::vector<ComponentHealth> component_health_;
  ChangeSink change_sink_;
  SnapshotObserver observer_;
  EventObserver event_observer_;
  std::deque<RecordedEvent> recent_events_;
  std::vector<TimedFinding> timed_findings_;
  // (check, subject) -> when it was first seen, for the findings still present.
  FindingSince finding_since_;
  // A previous run's, each until taken by its finding; all dropped kRestoredSinceGraceSeconds after
  // the first poll's publish (restored_until_).
  FindingSince restored_since_;
  std::optional<double> restored_until_;

  NodeState state_;
  NodeStateView view_;
  NodeStateWriter writer_;
  NodeSnapshot spare_;  // the snapshot before the latest, overwritten by the next poll
  std::map<std::string, uint64_t, std::less<>> source_errors_;
  uint64_t source_errors_counted_ = 0;  // the sum of source_errors_
  std::string pending_reason_;
  EventLoop::TimerId requested_timer_ = 0;
  EventLoop::TimerId periodic_timer_ = 0;
  EventLoop::TimerId publish_timer_ = 0;
  MonoTime next_periodic_{};
  bool started_ = false;

  uint64_t polls_ = 0;
  std::atomic<double> last_poll_unix_{0};
  // rocewatch_poll_duration_seconds
  std::vector<uint64_t> poll_duration_buckets_;
  uint64_t poll_duration_count_ = 0;
  double poll_duration_sum_ = 0;
};

// Bucket bounds of rocewatch_poll_duration_seconds.
const std::vector<double>& PollDurationBounds();

}  // namespace rocewatch
