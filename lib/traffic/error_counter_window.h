#pragma once
// The RDMA error and congestion counters of one port (hw_counters/) over a recent window: what
// rose, by how much, at what rate. A finding about a traffic drop quotes them as evidence.

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "traffic/counter_series.h"

namespace rocewatch {

// The hw_counters a drop finding quotes: transport errors and retransmissions (a bad link or a
// dead peer) and congestion notifications (a congested fabric). mlx5 names.
inline constexpr std::array<std::string_view, 8> kTrafficErrorCounters = {
    "local_ack_timeout_err", "packet_seq_err",      "out_of_sequence", "rnr_nak_retry_err",
    "roce_adp_retrans",      "roce_adp_retrans_to", "np_cnp_sent",     "rp_cnp_handled"};

struct ErrorCounterRise {
  std::string counter;
  uint64_t increase = 0;
  double per_second = 0;  // increase over the time the window covers

  bool operator==(const ErrorCounterRise&) const = default;
};

class ErrorCounterWindow {
 public:
  // REQUIRES: span > 0.
  explicit ErrorCounterWindow(Duration span) : span_(span) {}

  // Feeds one read of the port's hw_counters (any names; only kTrafficErrorCounters are kept).
  // A counter absent from `hw_counters` is a failed read for that counter. Q-counters are 32-bit:
  // wraps count through, resets restart the counter's series.
  void Observe(MonoTime at, const std::map<std::string, uint64_t>& hw_counters);
  void Clear();

  // The counters that rose within the window, in kTrafficErrorCounters order.
  std::vector<ErrorCounterRise> Rises() const;

 private:
  struct Increase {
    MonoTime at;
    uint64_t delta;
    Duration span;
  };
  struct Tracked {
    CounterSeries series{kQCounter32};
    std::deque<Increase> increases;
  };
  Duration span_;
  std::map<std::string, Tracked, std::less<>> counters_;
};

}  // namespace rocewatch
