#pragma once
// The RDMA error and congestion counters of one port (hw_counters/) over a recent window: what
// rose, by how much, at what rate. A finding about a traffic drop quotes them as evidence.

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "traffic/counter_series.h"

namespace rocewatch {

struct TrafficErrorCounter {
  std::string_view name;
  CounterWidth width;
};

// The hw_counters a drop finding quotes, with their width in the mlx5 driver: transport errors and
// retransmissions (a bad link or a dead peer) are 32-bit Q-counters; congestion notifications (a
// congested fabric) come from the 64-bit congestion statistics.
inline constexpr std::array<TrafficErrorCounter, 8> kTrafficErrorCounters = {{
    {"local_ack_timeout_err", kQCounter32},
    {"packet_seq_err", kQCounter32},
    {"out_of_sequence", kQCounter32},
    {"rnr_nak_retry_err", kQCounter32},
    {"roce_adp_retrans", kQCounter32},
    {"roce_adp_retrans_to", kQCounter32},
    {"np_cnp_sent", kCounter64},
    {"rp_cnp_handled", kCounter64},
}};

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
  // A counter absent from `hw_counters` is a failed read for that counter. Wraps of the 32-bit
  // Q-counters count through; resets restart the counter's series.
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
    explicit Tracked(CounterWidth width) : series(width) {}
    CounterSeries series;
    std::deque<Increase> increases;
  };
  Duration span_;
  // By position in kTrafficErrorCounters; empty until the counter is first read.
  std::array<std::optional<Tracked>, kTrafficErrorCounters.size()> counters_;
};

}  // namespace rocewatch
