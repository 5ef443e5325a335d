#pragma once
// Link flaps of RNIC netdevs. A flap is a carrier-down episode, counted when it starts (a link that
// stays down never comes back to complete it, and a switch whose links all stay down must still
// show as a fabric event).
// Episodes the daemon did not see happen (a sub-second flap that linkwatch coalesced, one lost in
// a netlink overrun, or one while the daemon was stopped between two observations) are inferred
// from the kernel's IFLA_CARRIER_CHANGES counter: two changes more than the transitions seen make
// one more flap, of unknown duration.
// Pure: observations and times in; no clock. Not thread-safe.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"

namespace rocewatch {

struct LinkFlapConfig {
  // "Flapping": at least `flapping_threshold` flaps within `flapping_window` (ByteRobust tolerates
  // network alerts twice within 5 minutes; three in ten minutes is a link to replace or reseat).
  Duration flapping_window = std::chrono::minutes(10);
  int flapping_threshold = 3;
};

class LinkFlapDetector {
 public:
  struct NetdevFlaps {
    bool carrier = false;
    uint64_t flaps_total = 0;     // episodes started, observed or inferred
    uint64_t inferred_total = 0;  // of which only the kernel counter saw
    uint64_t kernel_carrier_changes = 0;
    std::optional<MonoTime> down_since;     // set while the carrier is down
    std::optional<Duration> last_duration;  // of the last observed episode
    std::optional<MonoTime> last_flap_at;   // when the last episode started
    std::deque<MonoTime> recent;            // start times of flaps within the window
  };

  explicit LinkFlapDetector(LinkFlapConfig config = {}) : config_(config) {}

  // The carrier of `netdev` and its kernel carrier-change counter at `at` (0 = unknown). The
  // first observation of a netdev is its baseline (a carrier already down is not counted).
  // Returns the number of flaps this observation started (observed plus inferred).
  int Observe(const std::string& netdev, bool carrier, uint64_t carrier_changes, MonoTime at);
  // The netdev is gone: its history is dropped.
  void Forget(const std::string& netdev);

  const NetdevFlaps* Find(const std::string& netdev) const;
  const std::map<std::string, NetdevFlaps>& netdevs() const { return netdevs_; }
  int FlapsInWindow(const std::string& netdev, MonoTime now) const;
  bool IsFlapping(const std::string& netdev, MonoTime now) const;

  // link_flapping (warning), link_flap (info: flaps seen, not flapping), netdev_carrier_down
  // (warning).
  void AppendFindings(MonoTime now, std::vector<Finding>& out) const;

  const LinkFlapConfig& config() const { return config_; }

 private:
  void CountFlap(NetdevFlaps& n, MonoTime at);
  LinkFlapConfig config_;
  std::map<std::string, NetdevFlaps> netdevs_;
};

}  // namespace rocewatch
