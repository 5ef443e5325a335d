#pragma once
// A Slurm node as `scontrol show node --oneliner` and `sinfo` print it. Pure parsers: the text
// comes from Slurm's commands (slurm_check/slurm_control.h) and is untrusted; anything unparsable
// is an error value, never a guess.

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// What every drain reason rocewatch writes starts with (remediation_policy.h): the own-reason
// rule resumes only nodes whose reason starts with it.
inline constexpr std::string_view kRocewatchReasonPrefix = "rocewatch:";

struct SlurmNode {
  std::string name;
  // Upper case, flags joined by '+' as scontrol prints them: "IDLE+DRAIN", "MIXED+DRAIN",
  // "DOWN+DRAIN+NOT_RESPONDING". sinfo's compact names ("drained", "draining", "drained*") are
  // upper-cased as they are: each holds "DRAIN" exactly when the node is drained or draining.
  std::string state;
  // The drain (or down) reason without Slurm's " [user@time]" suffix; empty without one.
  std::string reason;
  std::vector<std::string> partitions;  // without sinfo's '*' default marker

  // Drained or draining: no new job lands on it.
  bool Drained() const;
  // Drained with a reason rocewatch wrote.
  bool DrainedByRocewatch() const;
  bool operator==(const SlurmNode&) const = default;
};

// One line of `scontrol show node --oneliner NAME`: "NodeName=n1 Arch=... State=IDLE+DRAIN ...
// Partitions=gpu,debug ... Reason=rocewatch: gid_drift mlx5_0/1 [root@2026-12-02T04:24:24]".
// Reason runs to the end of the line (it may hold spaces and '='). Errors: InvalidArgument when
// NodeName= or State= is missing.
StatusOr<SlurmNode> ParseScontrolNode(std::string_view line);

// The output of `sinfo --noheader --Node --format='%N|%T|%P|%E'`: one line per node and
// partition; a node in several partitions is returned once with all of them, in the order seen.
// The reason is the rest of the line (it may hold '|'); sinfo prints "none" for no reason.
// Errors: InvalidArgument naming the first line that has fewer than four fields.
StatusOr<std::vector<SlurmNode>> ParseSinfoNodes(std::string_view text);

}  // namespace rocewatch
