#pragma once
// `rocewatch slurm-check`: Slurm's HealthCheckProgram (docs/deploy.md, "Slurm"). One run: read
// the node's Slurm state, the findings (the daemon's live ones merged into diagnose's one-shot
// checks, or the one-shot checks alone where no daemon answers), the drained nodes of the budget
// scope and the previous run's record; decide (slurm_check/remediation_policy.h); drain, resume
// or refuse; rewrite the record and the metrics file. Each step that fails leaves the node as it
// was and says so in one line. Every OS touchpoint comes in: the host (env), Slurm (slurm), the
// files it writes (writer).

#include <ostream>
#include <string>

#include "daemon/host_env.h"
#include "daemon/options.h"
#include "os/state_file_writer.h"
#include "slurm_check/remediation_policy.h"
#include "slurm_check/slurm_control.h"

namespace rocewatch {

struct SlurmCheckOptions {
  // The host checks, as `diagnose` runs them (json/npd/watch unset).
  DiagnoseOptions diagnose;
  std::string node;  // the Slurm node name (REQUIRED: SLURMD_NODENAME under slurmd)
  RemediationPolicy policy;
  bool budget_per_partition = true;  // false: the whole cluster is the scope
  bool dry_run = false;              // decide and say so; change nothing in Slurm
  std::string state_file = "/var/lib/rocewatch/slurm-check.json";  // empty: no record kept
  // node_exporter textfile; empty: none.
  std::string metrics_file = "/var/lib/prometheus/node-exporter/rocewatch-slurm-check.prom";
};

// Exit status: 0 done (acted, or nothing to do), 1 refused to drain (budget: a fabric problem),
// 2 could not act (Slurm or the host did not answer; the node left as it was). One line per
// step worth telling on `out`.
int RunSlurmCheck(const HostEnv& env, SlurmControl& slurm, StateFileWriter& writer,
                  const SlurmCheckOptions& options, std::ostream& out);

}  // namespace rocewatch
