#pragma once
// From what the ethtool interfaces answered to what the detectors take: which counter stands for
// which quantity, by preference (FEC netlink statistics first, then the driver's named counters,
// then the standard statistics).

#include <optional>

#include "ethtool/ethtool_poller.h"
#include "link_quality/link_quality_detector.h"
#include "link_quality/pfc_storm_detector.h"

namespace rocewatch {

// `carrier`: the netdev's carrier as rtnetlink reports it, when known (used when the driver has
// no link state of its own).
LinkQualitySample LinkQualitySampleFrom(MonoTime at, const NetdevEthtool& readings,
                                        std::optional<bool> carrier);
PfcSample PfcSampleFrom(MonoTime at, const NetdevEthtool& readings);

// The FEC totals, from FEC_GET or (corrected bits) the driver's rx_corrected_bits_phy.
std::optional<uint64_t> CorrectedBits(const NetdevEthtool& readings);
// PHY symbol errors: rx_pcs_symbol_err_phy, rx_symbol_err_phy, or the standard counter.
std::optional<uint64_t> SymbolErrors(const NetdevEthtool& readings);
// Link-down events: the driver's link_down_events_phy, else LINKSTATE's link-down count.
std::optional<uint64_t> LinkDownEvents(const NetdevEthtool& readings);

}  // namespace rocewatch
