#pragma once
// What the state file keeps of the other features' open incidents, read from their parts of the
// node state (model/open_incidents.h): assembled for a write, reported after a restore, and
// exported as rocewatch_restored_incidents{check,status}. The GID drift component owns the state
// file; these are its readings of the parts it declared (`kept`), never a call into a feature.

#include <string>

#include "component/node_state.h"
#include "core/clock.h"
#include "export/metric_families.h"

namespace rocewatch {

// The parts whose incidents the state file can keep.
inline constexpr StatePart kKeptIncidentParts[] = {StatePart::kNetdevIncidents,
                                                   StatePart::kRailIncidents, StatePart::kFarEnds,
                                                   StatePart::kLinkVerdicts, StatePart::kSeenPorts};

// The incidents of the `kept` parts, as the state file holds them (finding_since empty: the
// Monitor's). REQUIRES: `state` may read every part of `kept`.
PersistedIncidents KeptIncidentsOf(const NodeStateView& state, StateParts kept);

// "2 ip_missing_after_flap confirmed, 1 traffic_collapsed checking" ("none"), with the rails not
// restored because the file was too old: the line logged after the first poll of a restore.
std::string DescribeRestoreOutcome(const NodeStateView& state, StateParts kept);

// rocewatch_restored_incidents{check,status}: every check and status, 0 when none.
void AppendRestoredIncidentMetrics(const NodeStateView& state, StateParts kept,
                                   MetricFamilies& out);

}  // namespace rocewatch
