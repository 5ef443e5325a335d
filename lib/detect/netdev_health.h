#pragma once
// The netdev detectors together: link flaps, IP loss during flaps and policy routing, fed with the
// changes NetdevTracker derives and the routing view, in order. Pure: observations and times in,
// state, findings and a narration out. Not thread-safe.

#include <optional>
#include <string>
#include <vector>

#include "detect/ip_loss_detector.h"
#include "detect/link_flap_detector.h"
#include "detect/policy_routing_detector.h"
#include "model/netdev_change.h"

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

class NetdevHealth {
 public:
  explicit NetdevHealth(NetdevHealthConfig config = {})
      : flaps_(config.flaps), ip_loss_(config.ip_loss), policy_(config.policy) {}

  // Feeds changes in the order they happened; appends what they meant to `narration` if given.
  void OnChanges(const std::vector<NetdevChange>& changes,
                 std::vector<NetdevNarration>* narration = nullptr);
  // Moves time on: grace periods and settle times expire; compares the routing view.
  void Evaluate(const RoutingView& view, MonoTime now);
  // The next time after `now` at which Evaluate may change something.
  std::optional<MonoTime> NextDeadline(MonoTime now) const;

  void AppendFindings(MonoTime now, std::vector<Finding>& out) const;

  const LinkFlapDetector& flaps() const { return flaps_; }
  const IpLossDetector& ip_loss() const { return ip_loss_; }
  const PolicyRoutingDetector& policy() const { return policy_; }

 private:
  void OnChange(const NetdevChange& change, std::vector<NetdevNarration>* narration);

  LinkFlapDetector flaps_;
  IpLossDetector ip_loss_;
  PolicyRoutingDetector policy_;
};

}  // namespace rocewatch
