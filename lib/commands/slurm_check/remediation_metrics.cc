#include "slurm_check/remediation_metrics.h"

#include "export/exposition_writer.h"
#include "export/metric_families.h"

namespace rocewatch {

std::string RemediationMetricsText(const RemediationRecord& record,
                                   const RemediationRunSummary& run) {
  namespace m = remediation_metric;
  MetricFamilies families;
  const char* kActionsHelp =
      "Drains, resumes, refusals (budget) and requeues taken by the Slurm health check";
  families.Declare(m::kActions, kActionsHelp, prometheus::MetricType::Counter);
  for (const auto& [key, count] : record.counts)
    families.Counter(m::kActions, kActionsHelp, {{"action", key.first}, {"reason", key.second}},
                     count);
  const Labels node = {{"node", run.node}};
  if (record.last_budget.known) {
    families.Gauge(m::kBudgetDrained, "Other nodes of the budget scope drained by rocewatch", node,
                   record.last_budget.drained_by_rocewatch);
    families.Gauge(m::kBudgetLimit, "How many nodes of the scope rocewatch may hold drained", node,
                   record.last_budget.limit);
    families.Gauge(m::kBudgetScope, "Nodes in the budget scope (partitions or cluster)", node,
                   record.last_budget.scope_nodes);
  }
  families.Gauge(m::kFabricProblem,
                 "1 when the last run refused to drain because the budget was spent", node,
                 record.fabric_problem ? 1 : 0);
  families.Gauge(m::kNodeDrained, "1 while the node is drained with a rocewatch reason", node,
                 run.drained_by_rocewatch ? 1 : 0);
  families.Gauge(m::kLastRun, "Unix time of the last health-check run", node, record.last_run_unix);
  families.Gauge(m::kRunSuccess, "1 if the last run decided and carried out its decision", node,
                 run.success ? 1 : 0);
  return WriteExposition(families.Take());
}

}  // namespace rocewatch
