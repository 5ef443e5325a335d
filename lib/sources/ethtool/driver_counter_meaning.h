#pragma once
// What a driver statistic (`ethtool -S` name) means to rocewatch. The names are the drivers' own
// and differ between drivers; this table knows mlx5's (drivers/net/ethernet/mellanox/mlx5/core/
// en_stats.c) for the PHY and the lossless fabric. Every other name is kUnknown and passed through
// untouched (kept in recordings and reports, never an error).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

enum class PauseDirection { kRx, kTx };  // rx: pause frames received; tx: pause frames sent
const char* PauseDirectionLabel(PauseDirection direction);  // "rx" | "tx"

enum class DriverCounterKind {
  kUnknown,
  kPhySymbolErrors,          // rx_symbol_err_phy: 802.3 aSymbolErrorDuringCarrier
  kPcsSymbolErrors,          // rx_pcs_symbol_err_phy: symbol errors the FEC could not correct
  kPhyCorrectedBits,         // rx_corrected_bits_phy: bits the FEC corrected (pre-FEC errors)
  kPhyCorrectedBitsLane,     // rx_err_lane_<N>_phy: corrected bits of one lane
  kPhyReceivedBits,          // rx_bits_phy: bits received (exact BER denominator where present)
  kPhyCrcErrors,             // rx_crc_errors_phy: frames dropped for a bad FCS
  kPhyLinkDownEvents,        // link_down_events_phy
  kPhyDiscards,              // rx_discards_phy: frames the port dropped for lack of buffer
  kPfcPauseFrames,           // rx_prio<N>_pause / tx_prio<N>_pause
  kPfcPauseDuration,         // rx_prio<N>_pause_duration / tx_..._duration, microseconds
  kPfcPauseTransitions,      // rx_prio<N>_pause_transition: XOFF -> XON transitions received
  kGlobalPauseFrames,        // rx_global_pause / tx_global_pause (link-level 802.3x pause)
  kGlobalPauseDuration,      // rx_global_pause_duration / tx_..., microseconds
  kPauseStormWarningEvents,  // tx_pause_storm_warning_events: device stall, minor watermark
  kPauseStormErrorEvents,    // tx_pause_storm_error_events: device stall, critical watermark
  kPrioEcnMarked,            // rx_prio<N>_marked: ECN-marked packets received on the priority
};

struct DriverCounterMeaning {
  DriverCounterKind kind = DriverCounterKind::kUnknown;
  std::optional<int> priority;              // 0-7 for the per-priority counters
  std::optional<int> lane;                  // for kPhyCorrectedBitsLane
  std::optional<PauseDirection> direction;  // for pause counters
  bool operator==(const DriverCounterMeaning&) const = default;
};

// The meaning of a driver statistic's name; kUnknown for names the table does not know.
DriverCounterMeaning InterpretDriverCounter(std::string_view name);

// One reading's interpreted counters, computed once per poll (an mlx5 port has ~2,000 statistics,
// of which a few dozen are interpreted).
struct InterpretedDriverCounters {
  // Kinds without a priority, the first counter of each kind (lanes left out).
  std::map<DriverCounterKind, uint64_t> totals;
  struct PerPriority {
    DriverCounterKind kind;
    int priority;
    std::optional<PauseDirection> direction;
    uint64_t value;
  };
  std::vector<PerPriority> per_priority;  // pause frames, durations, transitions, ECN marks
  std::optional<uint64_t> Total(DriverCounterKind kind) const {
    auto it = totals.find(kind);
    return it == totals.end() ? std::nullopt : std::optional<uint64_t>(it->second);
  }
};

template <typename Counters>  // a range of (name, value) pairs
InterpretedDriverCounters InterpretDriverCounters(const Counters& counters) {
  InterpretedDriverCounters out;
  for (const auto& [name, value] : counters) {
    const DriverCounterMeaning m = InterpretDriverCounter(name);
    if (m.kind == DriverCounterKind::kUnknown || m.lane) continue;
    if (m.priority) {
      out.per_priority.push_back({m.kind, *m.priority, m.direction, value});
    } else {
      out.totals.emplace(m.kind, value);
    }
  }
  return out;
}

}  // namespace rocewatch
