#pragma once
// The `rocewatch run` flags of the ethtool component (docs/cli.md, docs/detection.md): rows of the
// run command's flag table (core/flag_table.h) bound to an EthtoolOptions, whose values are their
// defaults. Each is also read from its environment variable ROCEWATCH_<NAME> (e.g.
// ROCEWATCH_OPTICS_INTERVAL).

#include "core/flag_table.h"
#include "link_quality/ethtool_options.h"

namespace rocewatch {

// Adds the rows, bound to `options`. REQUIRES: options outlives `flags`.
void AddEthtoolFlags(FlagTable& flags, EthtoolOptions& options);

// After FlagTable::Apply: checks the values together and derives what follows from them (enabled,
// the windows' minimum spans, the PFC clear fraction). InvalidArgument naming the flags.
Status FinishEthtoolFlags(EthtoolOptions& options);

}  // namespace rocewatch
