#pragma once
// The `rocewatch run` flags of LLDP receive and the rail plan (docs/cli.md, docs/detection.md):
// rows of the command's flag table (core/flag_table.h: each also read from its environment
// variable, ROCEWATCH_NO_LLDP, ROCEWATCH_RAIL_PLAN, ROCEWATCH_NODE_NAME), then turned into
// validated LldpOptions.

#include <string>

#include "core/flag_table.h"
#include "core/status.h"
#include "fabric/lldp_options.h"
#include "os/file_system.h"

namespace rocewatch {

struct LldpFlagValues {
  bool no_lldp = false;   // --no-lldp
  std::string rail_plan;  // --rail-plan FILE; empty: none
  std::string node_name;  // --node-name; empty: the short host name
};

void AddLldpFlags(FlagTable& flags, LldpFlagValues& values);

// Reads and parses the rail plan through `files` (the operator's file, not the host root's).
// InvalidArgument "--rail-plan FILE: ..." for an unreadable or invalid plan, or one that uses {n}
// with a node name without a number; "--node-name ..." for a name that is not printable ASCII.
StatusOr<LldpOptions> LldpOptionsFromFlags(const LldpFlagValues& values, const FileSystem& files);

}  // namespace rocewatch
