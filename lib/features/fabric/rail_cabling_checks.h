#pragma once
// Is each rail cabled where it belongs (docs/detection.md, "The rail plan")? Pure: the rails with
// their LLDP neighbors, the plan (if any) and the node name in; verdicts and findings out.
//   rail_miscabled (critical)       with a plan: the rail's neighbor is not the planned switch
//                                   and port; names both ends, and the rail the seen end is
//                                   planned for when there is one
//   rail_layout_suspect (warning)   without a plan, inferred: most rails land on a switch of their
//                                   own (a rail-optimized layout) but some share one, or every
//                                   rail has its own switch and most use one port number but
//                                   some another. Needs three rails with neighbors.

#include <optional>
#include <string>
#include <vector>

#include "fabric/rail_plan.h"
#include "lldp/lldp_frame.h"
#include "model/finding.h"

namespace rocewatch {

struct CabledRail {
  RailIdentity identity;
  const LldpFrame* neighbor = nullptr;  // null: no neighbor (now)
};

struct RailCablingObservation {
  std::vector<CabledRail> rails;   // in rail order (RailIdentity::index)
  const RailPlan* plan = nullptr;  // null: no --rail-plan
  std::string node_name;
};

struct RailCablingVerdict {
  std::string netdev;
  PlannedFarEnd planned;
  bool as_planned = false;
};

struct RailCablingResult {
  std::vector<RailCablingVerdict> verdicts;  // rails with a neighbor and a plan line
  std::vector<Finding> findings;
};

// The rails rocewatch receives LLDP on, numbered as the plan counts them: sorted by device
// (natural order) and port, index from 0.
void NumberRails(std::vector<CabledRail>& rails);

RailCablingResult CheckRailCabling(const RailCablingObservation& observation);

}  // namespace rocewatch
