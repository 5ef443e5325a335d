#pragma once
// What the ethtool interfaces of one netdev tell us, as plain values. Each reading is what one
// request answered; a request the driver does not implement (EOPNOTSUPP) is not an error but an
// absent reading (std::nullopt where a source returns StatusOr<std::optional<...>>).
//
// Counters are cumulative as the driver keeps them; they may reset (driver reload) and consumers
// must treat a decrease as a reset.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rocewatch {

// The driver statistics of ETHTOOL_GSTRINGS(ETH_SS_STATS) + ETHTOOL_GSTATS (`ethtool -S`), in the
// driver's order. Names are the driver's own; they are interpreted by DriverCounterMeaning.
struct DriverStatistics {
  std::vector<std::pair<std::string, uint64_t>> counters;

  // The value of the first counter with that name.
  std::optional<uint64_t> Find(const std::string& name) const;
};

// ETHTOOL_MSG_FEC_GET with ETHTOOL_FLAG_STATS. Totals are absent when the driver does not count
// them; per-lane values (index = lane) are present only where the driver reports lanes.
struct FecReading {
  std::optional<uint32_t> active_mode_bit;  // ETHTOOL_A_FEC_ACTIVE: an ETHTOOL_LINK_MODE_FEC_*_BIT
  std::optional<uint64_t> corrected_blocks;
  std::optional<uint64_t> uncorrectable_blocks;
  std::optional<uint64_t> corrected_bits;
  std::vector<uint64_t> corrected_blocks_per_lane;
  std::vector<uint64_t> uncorrectable_blocks_per_lane;
  std::vector<uint64_t> corrected_bits_per_lane;
  bool operator==(const FecReading&) const = default;
};

// ETHTOOL_MSG_LINKSTATE_GET: whether the link is up and, when it is not, why (link_ext_state and
// substate, enum ethtool_link_ext_state in linux/ethtool.h), and the kernel's link-down count.
struct LinkStateReading {
  std::optional<bool> link_up;
  std::optional<uint8_t> ext_state;
  std::optional<uint8_t> ext_substate;
  std::optional<uint32_t> link_down_count;  // ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT (Linux 6.3+)
  bool operator==(const LinkStateReading&) const = default;
};

// ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS: link-level (global) pause settings and frame
// counts. Per-priority PFC is only in the driver statistics.
struct PauseReading {
  std::optional<bool> autoneg;
  std::optional<bool> rx_enabled;
  std::optional<bool> tx_enabled;
  std::optional<uint64_t> tx_pause_frames;
  std::optional<uint64_t> rx_pause_frames;
  bool operator==(const PauseReading&) const = default;
};

// ETHTOOL_MSG_STATS_GET: the standard (IEEE 802.3 / RMON) counters the driver reports, keyed
// "<group>.<name>", e.g. "eth-phy.SymbolErrorDuringCarrier". Empty when the driver reports none.
struct StandardStatistics {
  std::map<std::string, uint64_t> counters;
  bool operator==(const StandardStatistics&) const = default;
};

// "<group>.<name>" key of the standard PHY symbol error counter.
inline constexpr const char* kStandardPhySymbolErrors = "eth-phy.SymbolErrorDuringCarrier";

// Why the link is down, for a person: "bad signal integrity (large number of physical errors)".
// Unknown values are passed through as numbers ("state 42, substate 3"). Empty without ext_state.
std::string DescribeLinkExtState(const LinkStateReading& reading);

}  // namespace rocewatch
