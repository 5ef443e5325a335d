#pragma once
// The link-quality and PFC-storm verdicts the ethtool component keeps across a restart of the
// daemon, and their form in the state file (model/open_incidents.h): states as labels ("degraded"
// | "failing", with the reason it gave, cut to kMaxKeptReasonBytes), storms as (netdev, priority,
// "rx" | "tx"), the driver's storm event counts per netdev.

#include <map>
#include <string>

#include "link_quality/link_quality_detector.h"
#include "link_quality/pfc_storm_detector.h"
#include "model/open_incidents.h"

namespace rocewatch {

struct LinkVerdicts {
  std::map<std::string, ResumedLinkQuality> link_quality;
  ResumedPfcStorms pfc;
  bool operator==(const LinkVerdicts&) const = default;
};

inline constexpr size_t kMaxKeptReasonBytes = 512;

PersistedLinkVerdicts PersistedLinkVerdictsOf(const LinkVerdicts& verdicts);
// The verdicts a state file kept; a state label that names no state is skipped.
LinkVerdicts LinkVerdictsOf(const PersistedIncidents& saved);

}  // namespace rocewatch
