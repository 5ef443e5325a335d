#pragma once
// MegaScale-style RDMA traffic detection, per port (rail), second-level. Pure: observations (the
// ports' counters and carrier at one instant) in, per-port state and findings out. No I/O, no
// clock: the caller passes each observation's monotonic time. docs/detection.md states the rules.
//
// The rails of a node are each other's control group: a rail that stops or slows while its
// siblings carry on is a fault of that rail; all rails stopping or slowing together is the job
// (a checkpoint, a slower phase) until the node has been silent longer than the node-stop window.
// Rails stopping one after the other within the checkpoint spread count as stopping together: a
// collapse one of them met against siblings that had not stopped yet is withdrawn.
//
// Threading: not thread-safe; one detector per node, fed from the event loop.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"
#include "model/port_key.h"
#include "model/rail_consumer.h"
#include "model/traffic_state.h"
#include "traffic/counter_series.h"
#include "traffic/error_counter_window.h"
#include "traffic/rate_window.h"
#include "traffic/rolling_median.h"
#include "traffic/traffic_options.h"

namespace rocewatch {

// A rail that carried traffic this recently when its link went down was in use then (unless its
// consumers were known to be gone).
inline constexpr Duration kRailInUseWindow = std::chrono::minutes(5);

// One port's counters and carrier at one instant.
struct PortTrafficSample {
  PortKey key;
  // Bytes (counters/port_xmit_data and port_rcv_data x4); nullopt when the read failed.
  std::optional<uint64_t> transmit_bytes;
  std::optional<uint64_t> receive_bytes;
  // The port's hw_counters/ (any names; the error counters of kTrafficErrorCounters are used),
  // or null for none read. Not owned: it points into the snapshot the sample was made from (the
  // counters are not copied on every poll) and must stay valid for the Observe call only.
  const std::map<std::string, uint64_t>* hw_counters = nullptr;
  // The carrier of the port's netdev: false = no carrier, nullopt = not known.
  std::optional<bool> carrier;
  // Who holds the port's device (model/rail_consumer.h). kNone makes a quiet port idle however
  // long it is quiet; kUnknown keeps the rules that need no consumer knowledge.
  ConsumerKnowledge consumers = ConsumerKnowledge::kUnknown;
};

// What the detector says about one port.
struct PortTrafficStatus {
  TrafficState state = TrafficState::kIdle;
  MonoTime state_since{};  // time of the observation that entered `state`
  // tx+rx bytes/s over the last interval; nullopt when a read failed, a counter reset, or on the
  // first observation.
  std::optional<double> rate;
  // The learned baseline (bytes/s); nullopt until min_baseline_samples active samples.
  std::optional<double> baseline;
  // Why the port is in its state, with the evidence: for degraded and collapsed, for link_down
  // under a job, and for idle in the observation that withdrew a collapse (the whole node paused
  // within the checkpoint spread); empty otherwise.
  std::string reason;
  // Error counters that rose within the error window.
  std::vector<ErrorCounterRise> error_rises;
  // The consumer knowledge the detector used: the sample's, except that a port that carried
  // traffic while its consumers read kNone counts as kUnknown (the traffic proves a consumer the
  // sources did not see) until a consumer is seen or the node's job is forgotten.
  ConsumerKnowledge consumers = ConsumerKnowledge::kUnknown;
  // Collapsed by the node-stop rule (every rail stopped past the window) rather than against
  // active siblings. With consumers kUnknown such a collapse may be a node idle between jobs: its
  // finding is a warning, not critical.
  bool node_wide = false;
  // link_down while a job holds the rail: its consumers are present now, or when the link went
  // down they were present, or the rail had carried traffic within kRailInUseWindow and its
  // consumers were not known to be gone. Held until the carrier is back, also after the
  // consumers exit. False in every other state.
  bool down_under_job = false;
};

// A node-wide stop that no known consumer explains (consumers not kPresent, including traffic
// that proved a consumer the sources do not see): the warning traffic_node_stopped, never the
// critical traffic_collapsed. The daemon exports `consumers` per port
// (rocewatch_traffic_consumers{knowledge}) and per device (rocewatch_rdma_consumers_known), so
// that the alert rules read this answer and no other.
bool IsUnattributedNodeStop(const PortTrafficStatus& status);

// Where a port starts from when another detector (the running daemon's) has watched it, so that
// the first rates and states of a new detector agree with it: its learned baseline, its state,
// and its byte counters at a known instant (the first observation's rate is then measured from
// them, not only from the second observation on).
struct PortTrafficResume {
  std::optional<double> baseline;
  TrafficState state = TrafficState::kIdle;
  bool node_wide = false;  // a collapse by the node-stop rule
  std::optional<uint64_t> transmit_bytes;
  std::optional<uint64_t> receive_bytes;
  MonoTime counters_at{};  // when those counters were read; also the state's `state_since`
};

class TrafficDetector {
 public:
  // REQUIRES: options.Validate().ok().
  explicit TrafficDetector(TrafficOptions options);

  // Feeds one observation of every port of the node. Ports absent from `ports` are forgotten
  // (their device went away); new ports start idle. REQUIRES: `at` does not go back.
  void Observe(MonoTime at, const std::vector<PortTrafficSample>& ports);

  // Starts `key` from another detector's view (PortTrafficResume). A baseline counts as
  // established (min_baseline_samples values at it) and is then refined by this detector's own
  // samples as usual. When the port stopped is not known, so a resumed collapse is never
  // withdrawn as part of a checkpoint (the port may have died long before its siblings stopped)
  // until the port has carried traffic again. REQUIRES: before the first Observe that includes
  // `key`.
  void Resume(const PortKey& key, const PortTrafficResume& from);

  // The status of every port seen in the last observation.
  const std::map<PortKey, PortTrafficStatus>& ports() const { return statuses_; }
  const PortTrafficStatus* Find(const PortKey& key) const;

  // traffic_collapsed (critical) per collapsed port, traffic_node_stopped (warning) instead for
  // a node-wide stop that IsUnattributedNodeStop, traffic_degraded (warning) per degraded port,
  // each with its reason and the error counters that rose with the drop. A port without carrier
  // gets rail_down_under_job (critical) when PortTrafficStatus::down_under_job, nothing
  // otherwise: the netlink component reports the carrier loss itself (a warning); that it hit a
  // job is this detector's to say, which alone knows the rail's traffic.
  std::vector<Finding> Findings() const;

  const TrafficOptions& options() const { return options_; }

 private:
  // Everything the detector keeps about one port.
  struct Tracker {
    explicit Tracker(const TrafficOptions& options);
    CounterSeries transmit{kPortDataBytes};
    CounterSeries receive{kPortDataBytes};
    RollingMedian baseline;
    std::optional<double> baseline_value;  // Median() of `baseline` once established, cached
    RateWindow recent;
    ErrorCounterWindow errors;
    std::optional<double> rate;  // of the current observation
    MonoTime rate_from{};        // start of the interval `rate` covers
    std::optional<bool> carrier;
    ConsumerKnowledge consumers = ConsumerKnowledge::kUnknown;  // as given by the sample
    bool traffic_without_consumers = false;                     // active while consumers read kNone
    std::optional<MonoTime> stopped_with_siblings_since;        // collapse pending since
    // Since when the port has carried nothing: the start of its first stopped (or carrier-less)
    // interval, kept through missing samples; unset while it is active, and while
    // `stop_time_unknown`.
    std::optional<MonoTime> stopped_since;
    bool stop_time_unknown = false;          // resumed from another detector, not active since
    std::optional<MonoTime> last_active_at;  // the last observation in which it was active
    // Why the rail was in use when its link went down ("processes held the rail"); empty when it
    // was not, or while the link is up.
    std::string in_use_when_link_lost;
    std::optional<MonoTime> drop_since;  // degradation pending since
    PortTrafficStatus status;
  };
  // What the ports of the node look like in the current observation (the siblings' evidence).
  struct PortFacts {
    bool known = false;            // has a rate and a carrier not known to be down
    bool active = false;           // carries traffic
    std::optional<double> ratio;   // rate / baseline, for an active port with a baseline
    std::optional<double> jitter;  // relative jitter, for an active port
  };
  struct SiblingView {
    size_t active = 0;                    // active siblings
    size_t total = 0;                     // siblings
    std::optional<double> median_ratio;   // over active siblings with a baseline
    std::optional<double> median_jitter;  // over active siblings with a jitter
  };

  // Refreshes tracker.baseline_value after `baseline` changed.
  void RefreshBaseline(Tracker& tracker) const;
  static std::optional<double> Baseline(const Tracker& tracker) { return tracker.baseline_value; }
  bool IsStopped(const Tracker& tracker) const;
  // The consumer knowledge the rules use (see PortTrafficStatus::consumers).
  static ConsumerKnowledge EffectiveConsumers(const Tracker& tracker);
  PortFacts FactsOf(const Tracker& tracker) const;
  SiblingView SiblingsOf(const PortKey& key, const std::map<PortKey, PortFacts>& facts) const;
  void Evaluate(MonoTime at, Tracker& tracker, const PortFacts& own, const SiblingView& siblings);
  void EvaluateStopped(MonoTime at, Tracker& tracker, const SiblingView& siblings);
  // Marks the port stopped from `from` on, unless it already is (or its stop time is unknown).
  static void NoteStopped(Tracker& tracker, MonoTime from);
  // Why the rail is in use at `at` (its link going down then), or empty.
  static std::string InUseEvidence(MonoTime at, const Tracker& tracker);
  // The port without carrier: link_down, under a job or not.
  static void EnterLinkDown(MonoTime at, Tracker& tracker);
  // For a port collapsed against active siblings: how long before the whole node stopped the
  // port itself stopped, when that is within the checkpoint spread and the node has been silent
  // for the spread since (a pause of the whole node: the collapse is withdrawn); nullopt
  // otherwise.
  std::optional<Duration> CheckpointSpreadOf(MonoTime at, const Tracker& tracker) const;
  void EvaluateActive(MonoTime at, Tracker& tracker, const PortFacts& own,
                      const SiblingView& siblings);
  static void Enter(Tracker& tracker, TrafficState state, MonoTime at, std::string reason = {});
  void UpdateNodeStop(MonoTime at, const std::map<PortKey, PortFacts>& facts);

  TrafficOptions options_;
  std::map<PortKey, Tracker> trackers_;
  std::map<PortKey, PortTrafficStatus> statuses_;
  // Since when no port of the node has carried traffic (unset while one does).
  std::optional<MonoTime> node_stopped_since_;
  bool baselines_forgotten_ = false;  // during the current node stop
  MonoTime last_at_{};
};

}  // namespace rocewatch
