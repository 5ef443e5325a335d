#pragma once
// IP addresses of RNIC netdevs lost during link flaps (the GID-drift incident: NetworkManager
// removed the port's address on carrier loss and re-added it later; the RoCE GID came back at a new
// index).
//
// Rules (times are those of the observations):
//  - lost: an address removed while the netdev's carrier is down, or within `transition_window`
//    of a carrier transition (before or after it: linkwatch may report the carrier after the
//    manager already reacted), counts once in ip_lost_total. Link-local addresses are ignored:
//    they carry only the default GIDs, which follow the MAC.
//  - missing: the addresses a netdev had when its carrier went down (plus those lost just before)
//    are expected back; any still absent `grace` after the carrier returned is missing until it
//    comes back (or the netdev vanishes).
// An inferred flap (the kernel counter moved, no transition seen) is a down and up at that time.
// Pure: observations and times in; Evaluate(now) moves time on. Not thread-safe.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"
#include "model/netdev.h"

namespace rocewatch {

struct IpLossConfig {
  Duration transition_window = std::chrono::seconds(5);
  // NetworkManager re-adds an address within a few seconds of carrier; DHCP may take longer.
  Duration grace = std::chrono::seconds(15);
};

class IpLossDetector {
 public:
  struct LostAddress {
    IpAddress address;
    MonoTime at{};
  };
  struct NetdevIps {
    bool carrier = false;
    std::optional<MonoTime> last_transition;
    std::set<IpAddress> current;
    std::set<IpAddress> expected;           // had before the flap, awaiting return
    std::optional<MonoTime> expected_by;    // carrier-up time + grace, while the carrier is up
    std::map<IpAddress, MonoTime> missing;  // -> since when
    uint64_t ip_lost_total = 0;
    std::optional<LostAddress> last_lost;  // the latest counted loss (memory stays bounded)
    // Removals with the carrier up, not (yet) counted: address -> when. Those older than the
    // transition window no longer count; they are pruned when the map has doubled since the last
    // pruning, so each removal costs O(log n) amortised even in an address storm.
    std::map<IpAddress, MonoTime> recent_removals;
    size_t prune_recent_removals_at = 64;
  };

  explicit IpLossDetector(IpLossConfig config = {}) : config_(config) {}

  // The netdev's baseline (first seen, renamed in, or re-created).
  void Reset(const std::string& netdev, bool carrier, const std::vector<IpAddress>& addresses,
             MonoTime at);
  void Forget(const std::string& netdev);
  // A carrier transition; a carrier equal to the known one is ignored.
  void OnCarrier(const std::string& netdev, bool carrier, MonoTime at);
  // A flap the kernel counter reports but no transition showed: down and up at `at`.
  void OnInferredFlap(const std::string& netdev, MonoTime at);
  void OnAddressRemoved(const std::string& netdev, const IpAddress& address, MonoTime at);
  void OnAddressAdded(const std::string& netdev, const IpAddress& address, MonoTime at);

  // Expected addresses still absent a grace period after carrier return become missing.
  void Evaluate(MonoTime now);
  // The next time Evaluate can change something; nullopt when nothing is pending.
  std::optional<MonoTime> NextDeadline() const;

  const NetdevIps* Find(const std::string& netdev) const;
  const std::map<std::string, NetdevIps>& netdevs() const { return netdevs_; }

  // ip_lost_during_flap (warning) and ip_missing_after_flap (critical).
  void AppendFindings(MonoTime now, std::vector<Finding>& out) const;

  // What an open incident needs to be judged again by another detector (a restarted daemon's):
  // each netdev's missing addresses, with since when. Netdevs without any are left out.
  std::map<std::string, std::map<IpAddress, MonoTime>> ExportMissing() const;
  enum class RestoreVerdict {
    kStillMissing,  // absent now: missing again, since `since`
    kBack,          // present now: healed while no detector watched
    kNetdevGone,    // the netdev is not known (not an RNIC netdev now): nothing restored
  };
  // Judges an address another detector found missing against the live baseline.
  // REQUIRES: Reset of the netdev (its live addresses) before.
  RestoreVerdict RestoreMissing(const std::string& netdev, const IpAddress& address,
                                MonoTime since);

 private:
  void StartFlap(NetdevIps& n, MonoTime at);
  void CountLoss(NetdevIps& n, const IpAddress& address, MonoTime at);
  bool NearTransition(const NetdevIps& n, MonoTime at) const;

  IpLossConfig config_;
  std::map<std::string, NetdevIps> netdevs_;
};

}  // namespace rocewatch
