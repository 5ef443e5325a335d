#pragma once
// The rail plan: which switch and switch port each rail of a node should be cabled to
// (docs/detection.md, "The rail plan"). A small text file, one line per rail or one line for all:
//
//   # rail      switch               port
//   *           su1-leaf-r{rail1}    swp{n}
//   mlx5_7      su1-leaf-spare       *
//
// rail:   a netdev (ens1f0np0), an RDMA device (mlx5_0) or port (mlx5_0/1), or `*` for every rail;
//         a line that names the rail wins over `*`.
// switch: matched against the neighbor's LLDP system name and its chassis ID (either may match).
// port:   matched against the neighbor's LLDP port ID and its port description (either).
// Switch and port are globs (`*`, `?`) after substitution of {rail} (the rail's index from 0:
// the node's RoCE ports in natural order of device and port), {rail1} (from 1), {node} (the node
// name) and {n} (the last number in the node name, without leading zeros). Blank lines and `#`
// comments are ignored. A rail line whose switch and port are both `-` retires the rail:
//
//   mlx5_3      -                    -
//
// the plan no longer lists it (its far end is not judged, and if it disappears it is
// acknowledged gone: docs/detection.md, "A device that disappears"). Pure: text in, plan or error
// out.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// Bounds on a plan file: it is read whole at start-up.
inline constexpr size_t kMaxRailPlanBytes = 64 * 1024;
inline constexpr size_t kMaxRailPlanLines = 1024;
inline constexpr size_t kMaxRailPlanFieldBytes = 256;

struct RailPlanLine {
  std::string rail;            // "*", a netdev, "mlx5_0" or "mlx5_0/1"
  std::string switch_pattern;  // before substitution
  std::string port_pattern;    // before substitution
  int line_number = 0;         // in the file, from 1
};

struct RailPlan {
  std::vector<RailPlanLine> lines;
  bool UsesNodeNumber() const;  // some pattern holds {n}
};

// InvalidArgument "line N: ..." for a line without exactly three fields, an unknown
// substitution, a field that is not printable ASCII or is too long, a rail named twice, too many
// lines, or a plan without any rail line.
StatusOr<RailPlan> ParseRailPlan(std::string_view text);

// One rail of the node, as the plan sees it.
struct RailIdentity {
  std::string netdev;
  std::string device;  // "mlx5_0"
  uint32_t port = 0;
  size_t index = 0;  // among the node's RoCE ports in natural order of device and port
};

// What the plan expects of one rail, substituted.
struct PlannedFarEnd {
  std::string switch_pattern;
  std::string port_pattern;
  int line_number = 0;
};

// The plan's line for `rail` (a line naming it, else `*`), substituted; nullopt when the plan
// says nothing of it or retires it (`- -`). `node_name` is the name {node} and {n} come from.
std::optional<PlannedFarEnd> PlanFor(const RailPlan& plan, const RailIdentity& rail,
                                     std::string_view node_name);

// Whether the plan lists the rail: a line names it, or a `*` line covers it, and that line does
// not retire it (`- -`). Only the rail's netdev, device and port are used (not its index).
bool PlanListsRail(const RailPlan& plan, const RailIdentity& rail);

// Whether a far end matches a planned one: the switch pattern against the system name or the
// chassis ID, the port pattern against the port ID or the port description.
bool MatchesPlan(const PlannedFarEnd& planned, std::string_view system_name,
                 std::string_view chassis_id, std::string_view port_id,
                 std::string_view port_description);

// The last run of digits of `node_name` without leading zeros ("gpu-007" -> "7"); nullopt when it
// has no digit.
std::optional<std::string> NodeNumber(std::string_view node_name);

}  // namespace rocewatch
