#pragma once
// The `rocewatch run --traffic-*` flags (docs/detection.md, "Flags"): rows of the run command's
// flag table (core/flag_table.h) bound to a TrafficOptions, whose values are their defaults. Each
// is also read from its environment variable ROCEWATCH_TRAFFIC_<NAME>.

#include "core/flag_table.h"
#include "traffic/traffic_options.h"

namespace rocewatch {

// Adds the --traffic-* rows, bound to `options`. REQUIRES: options outlives `flags`.
void AddTrafficFlags(FlagTable& flags, TrafficOptions& options);

// After FlagTable::Apply: InvalidArgument naming the flags of an inconsistent set of values.
Status CheckTrafficFlags(const TrafficOptions& options);

}  // namespace rocewatch
