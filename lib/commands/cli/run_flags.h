#pragma once
// The flags of `rocewatch run` that set the daemon itself (docs/cli.md, "rocewatch run"): one
// table bound to a RunOptions whose values are the defaults (daemon/defaults.h). The feature
// rooms declare their own flags (--traffic-*, --ethtool-*, --lldp-*).

#include "core/flag_table.h"
#include "daemon/options.h"

namespace rocewatch {

// REQUIRES: `options` (the defaults) outlives the table.
FlagTable RunFlagTable(RunOptions& options);

}  // namespace rocewatch
