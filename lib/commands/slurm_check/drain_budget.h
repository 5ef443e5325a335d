#pragma once
// How many nodes of a scope (the node's partitions, or the cluster) rocewatch may hold drained
// at once. Above it, draining one more node cannot be the fix: several nodes failing together
// point at what they share (a switch, a cable bundle, a fabric-wide setting), so the health check
// refuses and reports a fabric problem instead (docs/deploy.md, "Slurm").

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace rocewatch {

struct DrainBudget {
  // Exactly one is set: a count of nodes, or a fraction of the scope's nodes in (0, 1].
  std::optional<int> max_nodes;
  std::optional<double> max_fraction;

  // The most nodes of a scope of `scope_nodes` that may be drained by rocewatch: the count, or
  // floor(fraction x scope_nodes) but at least 1 (a small partition can still drain one node).
  int LimitFor(int scope_nodes) const;
  // "3" or "10%".
  std::string ToString() const;
};

// "3" (a count, 0..100000) or "10%" (a percentage, above 0 and at most 100). Errors:
// InvalidArgument.
StatusOr<DrainBudget> ParseDrainBudget(std::string_view text);

}  // namespace rocewatch
