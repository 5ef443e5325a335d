#include "fabric/lldp_flags.h"

#include <unistd.h>

#include "core/terminal_text.h"
#include "core/text.h"

namespace rocewatch {
namespace {

// The host name up to its first dot; "" when it cannot be read.
std::string ShortHostName() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) return "";
  std::string name(host);
  return name.substr(0, name.find('.'));
}

}  // namespace

void AddLldpFlags(FlagTable& flags, LldpFlagValues& v) {
  flags.Group("Fabric: LLDP and the rail plan (docs/detection.md)")
      .Switch("--no-lldp", "Do not receive LLDP (no AF_PACKET sockets)", v.no_lldp)
      .Text("--rail-plan",
            "File naming the switch and port each rail should be cabled to (docs/detection.md)",
            v.rail_plan)
      .Text("--node-name",
            "This node's name for the rail plan's {node} and {n} (default: the host name)",
            v.node_name)
      .Group("");
}

StatusOr<LldpOptions> LldpOptionsFromFlags(const LldpFlagValues& v, const FileSystem& files) {
  LldpOptions options;
  options.enabled = !v.no_lldp;
  options.node_name = v.node_name.empty() ? ShortHostName() : v.node_name;
  if (options.node_name.size() > 253 || !IsPrintableAscii(options.node_name))
    return Status::InvalidArgument("--node-name: not a host name: " +
                                   TerminalSafe(options.node_name));
  if (v.rail_plan.empty()) return options;
  const std::string where = "--rail-plan " + TerminalSafe(v.rail_plan) + ": ";
  StatusOr<std::string> text = files.ReadFile(v.rail_plan, kMaxRailPlanBytes + 1);
  if (!text.ok()) return Status::InvalidArgument(where + text.status().message());
  StatusOr<RailPlan> plan = ParseRailPlan(*text);
  if (!plan.ok()) return Status::InvalidArgument(where + plan.status().message());
  if (plan->UsesNodeNumber() && !NodeNumber(options.node_name))
    return Status::InvalidArgument(where + "uses {n}, but the node name '" + options.node_name +
                                   "' has no number (set --node-name)");
  options.rail_plan = std::move(plan).value();
  return options;
}

}  // namespace rocewatch
