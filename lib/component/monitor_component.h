#pragma once
// The extension point of the daemon. Each feature (inventory metrics, netlink listener, GID drift,
// traffic detector, ...) is one MonitorComponent: it may watch fds on the event loop, reacts to
// every new NodeSnapshot, and contributes metrics and findings. The Monitor (daemon/monitor.h) owns
// the components, the poll schedule and the published exposition. Components share nothing but the
// node state (component/node_state.h), each through the parts its declaration() names.
//
// Threading: every method runs on the event-loop thread.

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "component/node_state.h"
#include "core/clock.h"
#include "core/event_loop.h"
#include "core/status.h"
#include "export/metric_families.h"
#include "model/finding.h"
#include "model/netdev.h"
#include "model/node.h"

namespace rocewatch {

// What the Monitor offers its components.
class MonitorContext {
 public:
  virtual ~MonitorContext() = default;
  virtual EventLoop& loop() = 0;
  virtual const Clock& clock() const = 0;

  // Asks for a GID/counter snapshot soon: after the settle delay (so that we do not race the
  // kernel's own GID work after an address event); requests within that delay coalesce.
  virtual void RequestSnapshot(std::string_view reason) = 0;
  // Asks for the exposition to be rebuilt and published at the end of this loop step (coalesced).
  virtual void RequestPublish() = 0;

  // The node state as the component given this context declared it (the parts it reads; each
  // other part is nullptr). The Monitor gives each component a context of its own.
  virtual const NodeStateView& state() const = 0;
  // Writes the parts the component provides; refuses the others.
  virtual NodeStateWriter& state_writer() = 0;

  // Counts failed reads for rocewatch_source_errors_total{source}.
  virtual void CountSourceError(std::string_view source, uint64_t count = 1) = 0;

  // Reports something that happened, for people: a flap, an address change, a GID move. Logged
  // at the severity's level (kWarning and up: warning, so `journalctl -p warning` lists flaps,
  // losses, drifts and collapses), and listed with its time by `rocewatch diagnose --watch`. One
  // line, evidence included.
  virtual void RecordEvent(std::string_view what, Severity severity) = 0;

  // (check, subject) of a finding -> when it was first seen (Unix seconds).
  using FindingSince = std::map<std::pair<std::string, std::string>, double>;
  // The first-seen times of the findings published last (the state file keeps them).
  virtual FindingSince findings_since() const { return {}; }
  // First-seen times from a previous run of the daemon: a finding published within
  // kRestoredSinceGraceSeconds of the first poll whose key is among them keeps that time. The
  // grace covers findings judged a few polls after a start (optics: one module read per poll);
  // what is not published by then healed meanwhile, and its time is dropped. REQUIRES: before the
  // first poll.
  virtual void RestoreFindingsSince(FindingSince since) { (void)since; }
};

// How long after the first poll a restored first-seen time may still be taken (above).
inline constexpr double kRestoredSinceGraceSeconds = 120;

class MonitorComponent {
 public:
  virtual ~MonitorComponent() = default;
  virtual std::string_view name() const = 0;
  // The parts of the node state it provides and reads (component/node_state.h). Asked once, at
  // Monitor::Start, which orders the components by them. Default: none.
  virtual StateDeclaration declaration() const { return {}; }

  // Called once before the first snapshot, in the OnSnapshot order (so a part a provider sets in
  // its Start is there for its readers' Start): open sockets, watch fds, schedule timers. A
  // failure is logged and counted and the daemon goes on without this component.
  virtual Status Start(MonitorContext& ctx) {
    (void)ctx;
    return Status::Ok();
  }
  // Called after every snapshot (periodic or requested): after the OnSnapshot of the providers of
  // the parts it reads, otherwise in registration order (component/component_order.h).
  virtual void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) {
    (void)ctx;
    (void)snapshot;
  }
  // Called after every component's OnSnapshot of a poll, in the same order, before the poll's
  // findings are published: for work that needs what the whole poll found (writing the state
  // file). Parts read here hold this poll's values, whether declared `reads` or `reads_previous`.
  virtual void AfterPoll(MonitorContext& ctx) { (void)ctx; }
  // False while what the component reports rests on reads that failed, even in a poll that
  // counted no new source error (a GID table carried forward with unknown slots). Read after each
  // OnSnapshot for rocewatch_component_success. Default: true.
  virtual bool Healthy(const MonitorContext& ctx) const {
    (void)ctx;
    return true;
  }
  // Adds this component's metrics to the exposition being built. Must be cheap: no I/O.
  virtual void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const {
    (void)ctx;
    (void)out;
  }
  // Adds findings about the current state (diagnose --watch, logs).
  virtual void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const {
    (void)ctx;
    (void)out;
  }
  // Called once when the daemon stops, in the reverse of the OnSnapshot order (a component stops
  // before the providers of what it reads, so what they provide at their Stop is current when the
  // GID drift component writes the state file at its own): flush state, close fds.
  virtual void Stop(MonitorContext& ctx) { (void)ctx; }
};

}  // namespace rocewatch
