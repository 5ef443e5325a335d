#pragma once
// What one Slurm health-check run leaves for the next (default
// /var/lib/rocewatch/slurm-check.json): since when the findings have been clear (the hold-down),
// how many actions of each kind were taken (rocewatch_remediation_actions_total), the last budget
// count, and the last actions with their evidence (the runbook's "why was my node drained").
// Parsing is pure; a missing, empty or corrupt file starts a fresh record (the check must run on a
// new node).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "slurm_check/remediation_policy.h"

namespace rocewatch {

struct RemediationRecord {
  struct Action {
    double time_unix = 0;
    std::string node;
    std::string action;    // RemediationActionLabel
    std::string reason;    // the metric's reason label
    std::string evidence;  // at most 2000 characters
    bool operator==(const Action&) const = default;
  };
  static constexpr size_t kMaxActions = 20;

  std::optional<double> clear_since_unix;
  // (action, reason) -> actions taken, since the record was first written.
  std::map<std::pair<std::string, std::string>, double> counts;
  BudgetState last_budget;
  bool fabric_problem = false;  // the last run refused to drain for the budget
  double last_run_unix = 0;
  std::vector<Action> actions;  // newest last, at most kMaxActions

  // Counts the action (not kNone, kKeepDrained, kHoldDown, kLeaveForeignDrain: those change
  // nothing) and keeps it among the last actions.
  void Note(const Action& action);
  bool operator==(const RemediationRecord&) const = default;
};

// Errors: InvalidArgument for text that is not a record (the caller starts afresh and says so).
StatusOr<RemediationRecord> ParseRemediationRecord(std::string_view text);
std::string RemediationRecordToJson(const RemediationRecord& record);

}  // namespace rocewatch
