#include "ethtool/driver_counter_meaning.h"

#include <charconv>

namespace rocewatch {
namespace {

struct FixedName {
  std::string_view name;
  DriverCounterKind kind;
  std::optional<PauseDirection> direction;
};

constexpr FixedName kFixedNames[] = {
    {"rx_symbol_err_phy", DriverCounterKind::kPhySymbolErrors, std::nullopt},
    {"rx_pcs_symbol_err_phy", DriverCounterKind::kPcsSymbolErrors, std::nullopt},
    {"rx_corrected_bits_phy", DriverCounterKind::kPhyCorrectedBits, std::nullopt},
    {"rx_bits_phy", DriverCounterKind::kPhyReceivedBits, std::nullopt},
    {"rx_crc_errors_phy", DriverCounterKind::kPhyCrcErrors, std::nullopt},
    {"link_down_events_phy", DriverCounterKind::kPhyLinkDownEvents, std::nullopt},
    {"rx_discards_phy", DriverCounterKind::kPhyDiscards, std::nullopt},
    {"rx_global_pause", DriverCounterKind::kGlobalPauseFrames, PauseDirection::kRx},
    {"tx_global_pause", DriverCounterKind::kGlobalPauseFrames, PauseDirection::kTx},
    {"rx_global_pause_duration", DriverCounterKind::kGlobalPauseDuration, PauseDirection::kRx},
    {"tx_global_pause_duration", DriverCounterKind::kGlobalPauseDuration, PauseDirection::kTx},
    {"tx_pause_storm_warning_events", DriverCounterKind::kPauseStormWarningEvents,
     PauseDirection::kTx},
    {"tx_pause_storm_error_events", DriverCounterKind::kPauseStormErrorEvents, PauseDirection::kTx},
};

// Consumes a decimal number at the front of `text`; nullopt if there is none.
std::optional<int> TakeNumber(std::string_view& text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return value;
}

bool TakePrefix(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

}  // namespace

const char* PauseDirectionLabel(PauseDirection direction) {
  return direction == PauseDirection::kRx ? "rx" : "tx";
}

DriverCounterMeaning InterpretDriverCounter(std::string_view name) {
  for (const FixedName& fixed : kFixedNames)
    if (fixed.name == name) return {fixed.kind, std::nullopt, std::nullopt, fixed.direction};

  std::string_view rest = name;
  // rx_err_lane_<N>_phy
  if (TakePrefix(rest, "rx_err_lane_")) {
    std::optional<int> lane = TakeNumber(rest);
    if (lane && rest == "_phy")
      return {DriverCounterKind::kPhyCorrectedBitsLane, std::nullopt, lane, std::nullopt};
    return {};
  }
  // (rx|tx)_prio<N>_(pause|pause_duration|pause_transition|marked)
  rest = name;
  std::optional<PauseDirection> direction;
  if (TakePrefix(rest, "rx_prio")) {
    direction = PauseDirection::kRx;
  } else if (TakePrefix(rest, "tx_prio")) {
    direction = PauseDirection::kTx;
  } else {
    return {};
  }
  std::optional<int> priority = TakeNumber(rest);
  if (!priority || *priority < 0 || *priority > 7) return {};
  if (rest == "_pause") return {DriverCounterKind::kPfcPauseFrames, priority, {}, direction};
  if (rest == "_pause_duration")
    return {DriverCounterKind::kPfcPauseDuration, priority, {}, direction};
  if (rest == "_pause_transition" && direction == PauseDirection::kRx)
    return {DriverCounterKind::kPfcPauseTransitions, priority, {}, direction};
  if (rest == "_marked" && direction == PauseDirection::kRx)
    return {DriverCounterKind::kPrioEcnMarked, priority, {}, std::nullopt};
  return {};
}

}  // namespace rocewatch
