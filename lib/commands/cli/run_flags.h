#pragma once
// The flags of `rocewatch run` (docs/cli.md, "rocewatch run"): one table bound to a RunOptions
// whose values are the defaults (daemon/defaults.h). The daemon's own rows are declared here, the
// feature rooms' rows by the rooms (--traffic-*, --ethtool-*/--link-*/--pfc-*, the LLDP and rail
// plan flags); RunCommandFlagTable puts them together, as `run` declares them.

#include "core/flag_table.h"
#include "daemon/options.h"
#include "fabric/lldp_flags.h"

namespace rocewatch {

// The daemon's own rows. REQUIRES: `options` (the defaults) outlives the table.
FlagTable RunFlagTable(RunOptions& options);
// Every row of `rocewatch run`: the daemon's, then the traffic, ethtool and LLDP rooms'.
// REQUIRES: `options` and `lldp` outlive the table.
FlagTable RunCommandFlagTable(RunOptions& options, LldpFlagValues& lldp);

}  // namespace rocewatch
