#pragma once
// Defaults of LLDP receive (docs/detection.md, "Fabric: the rail's LLDP neighbor").

#include <chrono>
#include <cstddef>

#include "core/clock.h"
#include "fabric/lldp_neighbor_table.h"

namespace rocewatch {

struct LldpOptions {
  bool enabled = true;
  LldpLimits limits;
  // Frames read per socket wakeup: the loop returns to its other work after this many.
  size_t frames_per_wakeup = 64;
  // A netdev whose socket could not be opened (no CAP_NET_RAW, not in this namespace) is tried
  // again after this long.
  Duration reopen_after = std::chrono::seconds(60);
};

}  // namespace rocewatch
