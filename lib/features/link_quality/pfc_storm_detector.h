#pragma once
// PFC pause storms, per netdev, priority and direction (docs/detection.md, "PFC storms"):
//   - tx: this host *sends* pause most of the time: its receive path cannot drain (host memory,
//     PCIe, a stuck receiver), not the network; it spreads congestion into the fabric;
//   - rx: this host *receives* pause most of the time: the fabric pushes back (congestion or a
//     storm elsewhere);
// from the fraction of time paused over a window (the driver's pause-duration counters), with
// hysteresis; plus the driver's own storm events (mlx5 device stall watermarks), which mean the
// NIC itself detected a stall. Pure: samples and their times in, states out.

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/clock.h"
#include "ethtool/driver_counter_meaning.h"
#include "model/finding.h"

namespace rocewatch {

struct PfcKey {
  std::string netdev;
  int priority = 0;
  PauseDirection direction = PauseDirection::kRx;
  bool operator<(const PfcKey& o) const {
    return std::tie(netdev, priority, direction) < std::tie(o.netdev, o.priority, o.direction);
  }
  bool operator==(const PfcKey&) const = default;
};

// One poll of a netdev's pause counters (cumulative).
struct PfcSample {
  MonoTime at{};
  std::map<std::pair<int, PauseDirection>, uint64_t> pause_microseconds;  // by priority, direction
  std::optional<uint64_t> storm_warning_events;
  std::optional<uint64_t> storm_error_events;
};

struct PfcStormOptions {
  Duration window = std::chrono::seconds(10);
  Duration min_span = std::chrono::seconds(5);
  double storm_fraction = 0.5;  // paused at least this fraction of the window: storm
  double clear_fraction = 0.2;  // a storm ends below this fraction
  Duration event_window = std::chrono::minutes(5);  // driver storm events count this long
};

struct PfcPriorityStatus {
  std::optional<double> paused_fraction;  // over the window
  bool storm = false;
};

struct PfcDriverStormStatus {
  uint64_t warning_events_in_window = 0;
  uint64_t error_events_in_window = 0;
  bool operator==(const PfcDriverStormStatus&) const = default;
};

// The storms judged before a restart of the daemon (link_quality/link_verdicts.h).
struct ResumedPfcStorms {
  std::set<PfcKey> storms;                             // priorities and directions in a storm
  std::map<std::string, PfcDriverStormStatus> driver;  // netdevs with driver storm events
  bool operator==(const ResumedPfcStorms&) const = default;
};

class PfcStormDetector {
 public:
  explicit PfcStormDetector(PfcStormOptions options = {}) : options_(options) {}

  // Storms judged before a restart. A priority's storm holds until a live fraction is measured
  // (over at least min_span) and is below clear_fraction, the storm's own rule for ending; driver
  // storm events hold (the live count, if larger, wins) until the netdev's live counters span the
  // event window. Netdevs no longer sampled are forgotten.
  void Resume(ResumedPfcStorms storms);
  // The storms now, as Resume takes them.
  ResumedPfcStorms Storms() const;

  // Feeds one poll; netdevs absent from `samples` are forgotten.
  void Observe(const std::map<std::string, PfcSample>& samples);

  const std::map<PfcKey, PfcPriorityStatus>& priorities() const { return priorities_; }
  const std::map<std::string, PfcDriverStormStatus>& driver_storms() const { return driver_; }
  // A warning per storming priority and direction; a critical one per netdev whose driver
  // reported storm error events (warning for warning events) in the event window.
  std::vector<Finding> Findings() const;

 private:
  PfcStormOptions options_;
  std::map<std::string, std::deque<PfcSample>> history_;
  std::map<PfcKey, PfcPriorityStatus> priorities_;
  std::map<std::string, PfcDriverStormStatus> driver_;
  std::map<std::string, PfcDriverStormStatus> resumed_driver_;
};

}  // namespace rocewatch
