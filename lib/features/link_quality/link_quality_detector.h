#pragma once
// Link quality of one Ethernet link from its PHY counters, as an early warning before the link
// starts to flap (docs/detection.md, "Link quality"):
//   - the pre-FEC bit error ratio over a window: bits the FEC corrected / bits carried, where bits
//     carried are the driver's received-bit counter when it has one, else the link speed times the
//     time;
//   - FEC blocks that could not be corrected (frames lost on the wire);
//   - PHY symbol errors.
// -> ok | degraded | failing. Pure: samples and their times in, states out; no I/O, no clock.

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"

namespace rocewatch {

enum class LinkQualityState { kOk, kDegraded, kFailing };
const char* LinkQualityStateLabel(LinkQualityState state);  // "ok" | "degraded" | "failing"
inline constexpr LinkQualityState kAllLinkQualityStates[] = {
    LinkQualityState::kOk, LinkQualityState::kDegraded, LinkQualityState::kFailing};

// One poll's PHY counters of a netdev (cumulative; absent where the driver has none).
struct LinkQualitySample {
  MonoTime at{};
  bool link_up = true;
  std::optional<uint64_t> speed_mbps;            // class/net/<netdev>/speed
  std::optional<uint64_t> corrected_bits;        // FEC corrected bits
  std::optional<uint64_t> received_bits;         // bits received (mlx5 rx_bits_phy)
  std::optional<uint64_t> uncorrectable_blocks;  // FEC uncorrectable blocks
  std::optional<uint64_t> symbol_errors;         // PHY symbol errors
};

struct LinkQualityOptions {
  Duration window = std::chrono::seconds(60);    // counters are compared across this window
  Duration min_span = std::chrono::seconds(10);  // no BER from less time than this
  double degraded_ber = 1e-5;                    // pre-FEC BER at or above: degraded
  double failing_ber = 1e-4;  // at or above: failing (RS(544,514) corrects up to ~2.4e-4)
  // Uncorrectable blocks in the window: any is degraded; at least this many per second of the
  // window is failing.
  double failing_uncorrectable_per_second = 1.0;
};

struct LinkQualityStatus {
  LinkQualityState state = LinkQualityState::kOk;
  std::optional<double> pre_fec_ber;  // over the current window
  double window_seconds = 0;          // span the deltas below cover
  uint64_t uncorrectable_in_window = 0;
  uint64_t symbol_errors_in_window = 0;
  std::string reason;  // evidence, empty when ok
};

// A verdict from before a restart of the daemon (link_quality/link_verdicts.h).
struct ResumedLinkQuality {
  LinkQualityState state = LinkQualityState::kOk;
  std::string reason;
  bool operator==(const ResumedLinkQuality&) const = default;
};

class LinkQualityDetector {
 public:
  explicit LinkQualityDetector(LinkQualityOptions options = {}) : options_(options) {}

  // Verdicts judged before a restart. Each holds (the live state, if worse, wins) until the
  // netdev's live counters span a whole window: a link that was failing is not called ok on a
  // few quiet seconds. It goes when the link is down (nothing is carried to judge) or the netdev
  // is no longer sampled.
  void Resume(std::map<std::string, ResumedLinkQuality> verdicts);
  // The degraded and failing verdicts now, as Resume takes them (a verdict still held from before
  // the restart is given as it was).
  std::map<std::string, ResumedLinkQuality> Verdicts() const;
  // Whether `netdev`'s state is a verdict from before the restart, not judged on live counters.
  bool Resumed(const std::string& netdev) const { return resumed_.count(netdev) > 0; }

  // Feeds one poll; netdevs absent from `samples` are forgotten.
  void Observe(const std::map<std::string, LinkQualitySample>& samples);

  const std::map<std::string, LinkQualityStatus>& netdevs() const { return status_; }
  // A warning per degraded link, a critical finding per failing one.
  std::vector<Finding> Findings() const;

 private:
  LinkQualityStatus Evaluate(const std::deque<LinkQualitySample>& history) const;

  LinkQualityOptions options_;
  std::map<std::string, std::deque<LinkQualitySample>> history_;
  std::map<std::string, LinkQualityStatus> status_;
  std::map<std::string, ResumedLinkQuality> resumed_;
};

// "1.2e-06" style, for messages.
std::string FormatRatio(double value);

}  // namespace rocewatch
