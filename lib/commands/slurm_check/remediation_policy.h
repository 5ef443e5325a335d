#pragma once
// What the Slurm health check does with this node (docs/deploy.md, "Slurm"): a pure decision from
// the node's findings, its Slurm state, the drained nodes of its budget scope, the time the
// findings have been clear since, and now. No I/O, no clock: slurm_check/slurm_check_command.h
// gathers the inputs and carries the decision out.
//
// The rules, in order:
//  1. A node drained with a reason that is not rocewatch's is left alone, whatever is found.
//  2. Findings that drain: a finding whose check is in `drain_checks` (a gid_drift only where its
//     device has consumers: a GID that moved under nobody harms no job).
//  3. With such findings: a node rocewatch drained stays drained; otherwise it is drained, unless
//     rocewatch already holds `budget.LimitFor(scope)` other nodes of the scope drained (or the
//     scope could not be listed): then it is refused, a fabric problem.
//  4. Without them: a node rocewatch drained is resumed once the findings have been clear for
//     `hold_down` (the first clear run starts that clock); any other node is left as it is.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/finding.h"
#include "model/rail_consumer.h"
#include "slurm_check/drain_budget.h"
#include "slurm_check/slurm_node.h"

namespace rocewatch {

// The checks that drain by default: GID drift (with consumers), an address still missing after
// a flap, a pinned index (the daemon's --expected-gid-index, or a job's NCCL_IB_GID_INDEX) that
// no longer holds its GID, a collapsed rail, a failing link.
std::set<std::string> DefaultDrainChecks();

struct RemediationPolicy {
  std::set<std::string> drain_checks = DefaultDrainChecks();
  Duration hold_down = std::chrono::minutes(10);
  DrainBudget budget{std::nullopt, 0.1};
  // Requeue the Slurm jobs that use a rail whose traffic collapsed, when draining for it.
  bool requeue_collapsed = false;
};

struct RemediationInput {
  std::vector<Finding> findings;
  const ConsumerObservation* consumers = nullptr;  // null: unknown (gid_drift then does not drain)
  SlurmNode node;
  // Every node of the budget scope (this node included or not); null when it could not be listed.
  const std::vector<SlurmNode>* scope = nullptr;
  std::optional<double> clear_since_unix;  // as recorded by the previous run
  double now_unix = 0;
};

enum class RemediationAction {
  kNone,               // healthy and not drained by rocewatch: nothing to do
  kDrain,              // drain the node
  kKeepDrained,        // drained by rocewatch, findings still there
  kHoldDown,           // drained by rocewatch, findings clear for less than the hold-down
  kResume,             // drained by rocewatch, findings clear for the hold-down: resume
  kRefuseBudget,       // would drain, but the budget is spent: a fabric problem
  kLeaveForeignDrain,  // drained by someone else: never touched
};
// "none", "drain", "keep_drained", "hold_down", "resume", "refuse", "leave_foreign_drain".
const char* RemediationActionLabel(RemediationAction action);

struct BudgetState {
  bool known = false;            // the scope could be listed
  int scope_nodes = 0;           // nodes in the scope
  int drained_by_rocewatch = 0;  // other nodes of the scope drained with a rocewatch reason
  int limit = 0;                 // budget.LimitFor(scope_nodes)
  bool operator==(const BudgetState&) const = default;
};

struct RemediationDecision {
  RemediationAction action = RemediationAction::kNone;
  // The check that drives a drain, keep or refusal ("gid_drift"), "findings_clear" for a resume
  // or hold-down, empty otherwise: the metric's `reason` label.
  std::string reason;
  // For kDrain: "rocewatch: <check> <subject>", printable ASCII, at most 120 characters.
  std::string slurm_reason;
  // What the decision rests on: the draining findings' messages, or why nothing is done.
  std::string evidence;
  // For kDrain with requeue_collapsed: the Slurm job ids using the collapsed rail(s).
  std::vector<std::string> requeue_jobs;
  // What the next run starts from: when the findings were first seen clear on a rocewatch-drained
  // node (nullopt otherwise).
  std::optional<double> clear_since_unix;
  BudgetState budget;
};

RemediationDecision DecideRemediation(const RemediationInput& input,
                                      const RemediationPolicy& policy);

// `text` reduced to what may go to a terminal or a log line: printable ASCII (anything else
// becomes '?'), at most `limit` characters.
std::string PrintableAscii(std::string_view text, size_t limit);
// What may go into a Slurm reason: PrintableAscii, quotes and backslashes replaced by '_', at
// most 120 characters.
std::string SlurmReasonText(std::string_view text);

}  // namespace rocewatch
