#pragma once
// The rtnetlink listener of the daemon and of `diagnose --watch`: reads a RtnetlinkSource on the
// event loop, keeps a NetdevTracker, feeds the NetdevHealth detectors, and re-dumps after an
// overrun so that no final state is lost.
//
// Start() dumps the initial state (every RNIC netdev "appears"), then watches the source's fd.
// On an overrun (ENOBUFS) the messages read before it are applied, the queue is drained and
// discarded, and a full dump is diffed against the known state (Resync): changes that were lost
// arrive as changes stamped with the dump time; flaps that left no trace but the kernel's carrier
// counter are inferred by the flap detector. Detector deadlines (grace periods) run as loop timers.
// Threading: everything on the event-loop thread. Lifetime: source, clock and loop outlive this.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/event_loop.h"
#include "core/status.h"
#include "netdev_health/netdev_health.h"
#include "netlink/netdev_tracker.h"
#include "netlink/rtnetlink_source.h"

namespace rocewatch {

class NetlinkListener {
 public:
  // Called after each batch of RNIC changes, with what they meant, after the detectors saw them;
  // also with no changes after a detector deadline was evaluated (a state may have moved).
  using ChangesCallback = std::function<void(const std::vector<NetdevChange>& changes,
                                             const std::vector<NetdevNarration>& narration)>;

  NetlinkListener(RtnetlinkSource& source, const Clock& clock, std::set<std::string> rnic_netdevs,
                  NetdevHealthConfig config = {});
  ~NetlinkListener();
  NetlinkListener(const NetlinkListener&) = delete;
  NetlinkListener& operator=(const NetlinkListener&) = delete;

  void set_on_changes(ChangesCallback callback) { on_changes_ = std::move(callback); }

  // Opens the source unless it is open already (tests open it inside a network namespace),
  // dumps the initial state and watches the fd on `loop`. Errors: the source's.
  Status Start(EventLoop& loop);
  // Unwatches, cancels timers, closes the source.
  void Stop();

  // The RNIC netdev names may change with the inventory. The tracker keeps the routes of RNIC
  // netdevs only, so a name that was not an RNIC before is followed by a full dump: the routes
  // it already had (at start: every route, as the inventory names the RNICs after the first dump)
  // become the policy-routing baseline like the rules present at start.
  void SetRnicNetdevs(std::set<std::string> names);

  // Reads what is queued (the loop calls it when the fd is readable).
  void OnReadable();
  // Runs the detectors' clock-driven rules now (the loop calls it at their deadlines).
  void Evaluate();

  // Judges a previous run's netdev incidents against the live state at once
  // (NetdevHealth::RestoreIncidents). REQUIRES: Start() succeeded.
  NetdevRestoreOutcome RestoreIncidents(const std::map<std::string, NetdevIncidents>& saved);

  const NetdevTracker& tracker() const { return tracker_; }
  const NetdevHealth& health() const { return health_; }
  RoutingView routing_view() const;

  uint64_t resyncs() const { return resyncs_; }
  // Failed reads and dumps, plus malformed messages (rocewatch_source_errors_total{netlink}).
  uint64_t errors() const { return errors_ + source_.malformed_messages(); }
  uint64_t messages() const { return messages_; }

 private:
  void Deliver(std::vector<NetdevChange>& changes);
  // Why a full dump replaces the tracker's state: a receive overrun (counted in resyncs(), its
  // failed dump retried) or RNIC netdevs that were not RNICs before (their routes).
  enum class RedumpReason { kOverrun, kNewRnicNetdevs };
  void Resync(RedumpReason reason = RedumpReason::kOverrun);
  void ScheduleDeadline();

  RtnetlinkSource& source_;
  const Clock& clock_;
  NetdevTracker tracker_;
  NetdevHealth health_;
  ChangesCallback on_changes_;
  EventLoop* loop_ = nullptr;
  std::optional<EventLoop::TimerId> deadline_timer_;
  std::optional<EventLoop::TimerId> retry_timer_;
  uint64_t resyncs_ = 0;
  uint64_t errors_ = 0;
  uint64_t messages_ = 0;
};

}  // namespace rocewatch
