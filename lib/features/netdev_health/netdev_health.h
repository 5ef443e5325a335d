#pragma once
// The netdev detectors together: link flaps, IP loss during flaps and policy routing, fed with the
// changes NetdevTracker derives and the routing view, in order. Pure: observations and times in,
// state, findings and a narration out. Not thread-safe.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/netdev_change.h"
#include "netdev_health/ip_loss_detector.h"
#include "netdev_health/link_flap_detector.h"
#include "netdev_health/policy_routing_detector.h"

namespace rocewatch {

struct NetdevHealthConfig {
  LinkFlapConfig flaps;
  IpLossConfig ip_loss;
  PolicyRoutingConfig policy;
};

// One thing that happened to an RNIC netdev, told for a person ("carrier down", "10.0.0.2/24
// removed (lost during a flap)"): what `diagnose --watch` prints and the daemon logs.
struct NetdevNarration {
  MonoTime at{};
  std::string netdev;
  std::string text;
  // kWarning: the carrier went down or came back (a flap), flaps inferred from the kernel's
  // counter, an address lost during a flap, the netdev gone. kInfo otherwise.
  Severity severity = Severity::kInfo;
  // An address added, or removed with the carrier up: the bulk of an address storm, which a
  // reader may summarise. Carrier changes and losses during flaps are never routine.
  bool routine = false;
};

// What the netdev detectors hand over to a restarted daemon's (the state file keeps it), per
// netdev: the addresses missing after a flap, with since when, and the policy rules it had.
struct NetdevIncidents {
  std::map<IpAddress, MonoTime> missing_addresses;
  PolicyRoutingDetector::Expected policy;
  auto operator<=>(const NetdevIncidents&) const = default;
};

// What RestoreIncidents found, for the log, the events and rocewatch_restored_incidents.
struct NetdevRestoreOutcome {
  // (check, verdict) -> how many: check "ip_missing_after_flap" or "policy_routing_missing";
  // verdict "confirmed" (still open), "healed" (resolved: back while the daemon was down) or
  // "dropped" (the netdev is no RNIC netdev now: nothing restored).
  std::map<std::pair<std::string, std::string>, size_t> counts;
  std::vector<NetdevNarration> narration;  // one line per healed or dropped incident
};

class NetdevHealth {
 public:
  explicit NetdevHealth(NetdevHealthConfig config = {})
      : config_(config), flaps_(config.flaps), ip_loss_(config.ip_loss), policy_(config.policy) {}

  // Feeds changes in the order they happened; appends what they meant to `narration` if given.
  void OnChanges(const std::vector<NetdevChange>& changes,
                 std::vector<NetdevNarration>* narration = nullptr);
  // Moves time on: grace periods and settle times expire; compares the routing view.
  void Evaluate(const RoutingView& view, MonoTime now);
  // The next time after `now` at which Evaluate may change something.
  std::optional<MonoTime> NextDeadline(MonoTime now) const;

  void AppendFindings(MonoTime now, std::vector<Finding>& out) const;

  // The open incidents (ExportMissing, ExportExpected), by netdev.
  std::map<std::string, NetdevIncidents> ExportIncidents() const;
  // Judges another detector's incidents against the live state at `now` at once (REQUIRES: the
  // live netdevs were fed and evaluated with `view` before): an address still absent is missing
  // since its original time, a rule still absent while its address is present is missing now;
  // what came back is healed. Then evaluates `view` again.
  NetdevRestoreOutcome RestoreIncidents(const std::map<std::string, NetdevIncidents>& saved,
                                        const RoutingView& view, MonoTime now);

  const LinkFlapDetector& flaps() const { return flaps_; }
  const IpLossDetector& ip_loss() const { return ip_loss_; }
  const PolicyRoutingDetector& policy() const { return policy_; }

 private:
  void OnChange(const NetdevChange& change, std::vector<NetdevNarration>* narration);

  NetdevHealthConfig config_;
  LinkFlapDetector flaps_;
  IpLossDetector ip_loss_;
  PolicyRoutingDetector policy_;
};

}  // namespace rocewatch
