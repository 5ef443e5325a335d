#pragma once
// Defaults of LLDP receive (docs/detection.md, "Fabric: the rail's LLDP neighbor").

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "core/clock.h"
#include "fabric/lldp_neighbor_table.h"
#include "fabric/rail_plan.h"

namespace rocewatch {

struct LldpOptions {
  bool enabled = true;
  LldpLimits limits;
  // Frames read per socket wakeup: the loop returns to its other work after this many.
  size_t frames_per_wakeup = 64;
  // A netdev whose socket could not be opened (no CAP_NET_RAW, not in this namespace) is tried
  // again after this long.
  Duration reopen_after = std::chrono::seconds(60);
  // --rail-plan: where each rail should be cabled (fabric/rail_plan.h); nullopt: the layout is
  // only inferred (fabric/rail_cabling_checks.h).
  std::optional<RailPlan> rail_plan;
  // --node-name: the name {node} and {n} of the plan come from (default: the short host name).
  std::string node_name;
};

}  // namespace rocewatch
