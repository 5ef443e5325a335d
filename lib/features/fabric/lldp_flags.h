#pragma once
// The `rocewatch run` flags of LLDP receive and the rail plan (docs/cli.md, docs/detection.md):
// declared on a CLI11 command, then turned into validated LldpOptions. Each is also read from its
// environment variable (ROCEWATCH_RAIL_PLAN, ROCEWATCH_NODE_NAME, ROCEWATCH_NO_LLDP).

#include <string>

#include "core/status.h"
#include "fabric/lldp_options.h"
#include "os/file_system.h"

namespace CLI {
class App;
}

namespace rocewatch {

struct LldpFlagValues {
  bool no_lldp = false;   // --no-lldp
  std::string rail_plan;  // --rail-plan FILE; empty: none
  std::string node_name;  // --node-name; empty: the short host name
};

void AddLldpFlags(CLI::App& command, LldpFlagValues& values);

// Reads and parses the rail plan through `files` (the operator's file, not the host root's).
// InvalidArgument "--rail-plan FILE: ..." for an unreadable or invalid plan, or one that uses {n}
// with a node name without a number; "--node-name ..." for a name that is not printable ASCII.
StatusOr<LldpOptions> LldpOptionsFromFlags(const LldpFlagValues& values, const FileSystem& files);

}  // namespace rocewatch
