#include "link_quality/ethtool_samples.h"

namespace rocewatch {
namespace {

std::optional<uint64_t> DriverCounter(const NetdevEthtool& r, DriverCounterKind kind) {
  return r.interpreted.Total(kind);
}

}  // namespace

std::optional<uint64_t> CorrectedBits(const NetdevEthtool& r) {
  if (r.fec && r.fec->corrected_bits) return r.fec->corrected_bits;
  return DriverCounter(r, DriverCounterKind::kPhyCorrectedBits);
}

std::optional<uint64_t> SymbolErrors(const NetdevEthtool& r) {
  if (auto pcs = DriverCounter(r, DriverCounterKind::kPcsSymbolErrors)) return pcs;
  if (auto phy = DriverCounter(r, DriverCounterKind::kPhySymbolErrors)) return phy;
  if (r.standard) {
    auto it = r.standard->counters.find(kStandardPhySymbolErrors);
    if (it != r.standard->counters.end()) return it->second;
  }
  return std::nullopt;
}

std::optional<uint64_t> LinkDownEvents(const NetdevEthtool& r) {
  if (auto events = DriverCounter(r, DriverCounterKind::kPhyLinkDownEvents)) return events;
  if (r.link_state && r.link_state->link_down_count) return *r.link_state->link_down_count;
  return std::nullopt;
}

LinkQualitySample LinkQualitySampleFrom(MonoTime at, const NetdevEthtool& r,
                                        std::optional<bool> carrier) {
  LinkQualitySample s;
  s.at = at;
  if (r.link_state && r.link_state->link_up) {
    s.link_up = *r.link_state->link_up;
  } else if (carrier) {
    s.link_up = *carrier;
  }
  s.speed_mbps = r.speed_mbps;
  s.corrected_bits = CorrectedBits(r);
  s.received_bits = DriverCounter(r, DriverCounterKind::kPhyReceivedBits);
  if (r.fec) s.uncorrectable_blocks = r.fec->uncorrectable_blocks;
  s.symbol_errors = SymbolErrors(r);
  return s;
}

PfcSample PfcSampleFrom(MonoTime at, const NetdevEthtool& r) {
  PfcSample s;
  s.at = at;
  for (const InterpretedDriverCounters::PerPriority& p : r.interpreted.per_priority)
    if (p.kind == DriverCounterKind::kPfcPauseDuration && p.direction)
      s.pause_microseconds[{p.priority, *p.direction}] = p.value;
  s.storm_warning_events = r.interpreted.Total(DriverCounterKind::kPauseStormWarningEvents);
  s.storm_error_events = r.interpreted.Total(DriverCounterKind::kPauseStormErrorEvents);
  return s;
}

}  // namespace rocewatch
