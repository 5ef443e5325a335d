#pragma once
// The Slurm health check's metrics (docs/metrics.md, "Remediation"), as a Prometheus text file for
// node_exporter's textfile collector: the check is a short-lived process that no one scrapes, so
// each run rewrites the file (atomically) from its record, whose counts persist across runs.

#include <string>

#include "slurm_check/remediation_record.h"

namespace rocewatch {

namespace remediation_metric {
inline constexpr char kActions[] = "rocewatch_remediation_actions_total";
inline constexpr char kBudgetDrained[] = "rocewatch_remediation_budget_drained_nodes";
inline constexpr char kBudgetLimit[] = "rocewatch_remediation_budget_limit_nodes";
inline constexpr char kBudgetScope[] = "rocewatch_remediation_budget_scope_nodes";
inline constexpr char kFabricProblem[] = "rocewatch_remediation_fabric_problem";
inline constexpr char kNodeDrained[] = "rocewatch_remediation_node_drained";
inline constexpr char kLastRun[] = "rocewatch_remediation_last_run_timestamp_seconds";
inline constexpr char kRunSuccess[] = "rocewatch_remediation_run_success";
}  // namespace remediation_metric

struct RemediationRunSummary {
  std::string node;
  bool drained_by_rocewatch = false;  // after this run
  bool success = false;               // the run decided and carried out its decision
};

std::string RemediationMetricsText(const RemediationRecord& record,
                                   const RemediationRunSummary& run);

}  // namespace rocewatch
