#pragma once
// The order in which the Monitor runs its components' OnSnapshot, derived from their declarations
// on the node state (component/node_state.h): a component runs after the providers of the parts
// it `reads`; `reads_previous` orders nothing. Among components free to run, the one registered
// first runs first (a stable topological order).

#include <string>
#include <vector>

#include "component/node_state.h"
#include "core/status.h"

namespace rocewatch {

struct DeclaredComponent {
  std::string name;
  StateDeclaration declaration;
};

// Indices into `components`, in the order to run them. `monitor_provides`: the parts the Monitor
// itself writes before any component runs. Errors (InvalidArgument, one line naming the
// components and parts): a part read that nobody provides, a part provided twice, a cycle of
// `reads`.
StatusOr<std::vector<size_t>> OrderComponents(const std::vector<DeclaredComponent>& components,
                                              StateParts monitor_provides);

}  // namespace rocewatch
