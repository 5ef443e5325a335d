#pragma once
// The `rocewatch slurm-check` flags (docs/cli.md, "slurm-check"): declared on a CLI11 command,
// then turned into validated SlurmCheckOptions. Each is also read from ROCEWATCH_<NAME>, but a
// Slurm health check runs with an empty environment: put flags in the HealthCheckProgram
// wrapper (deploy/slurm/rocewatch-slurm-check).

#include <cstdlib>
#include <string>

#include "slurm_check/slurm_check_command.h"
#include "slurm_check/slurm_control.h"

namespace CLI {
class App;
}

namespace rocewatch {

struct SlurmCheckFlagValues {
  SlurmCheckFlagValues();
  std::string node;  // default: SLURMD_NODENAME, else the short host name
  std::string daemon;
  std::string drain_on;
  std::string hold_down;
  std::string budget;
  std::string budget_scope = "partition";
  bool requeue_collapsed = false;
  bool dry_run = false;
  std::string scontrol, sinfo, slurm_conf;
  std::string call_timeout;
  std::string deadline;
  std::string state_file, metrics_file;
  std::string kubelet_socket;
};

void AddSlurmCheckFlags(CLI::App& command, SlurmCheckFlagValues& values);

struct SlurmCheckSetup {
  SlurmCheckOptions check;
  ScontrolOptions scontrol;
  Duration deadline = std::chrono::seconds(30);  // the whole run
};

// `common`: the validated --host-root and friends. InvalidArgument naming the flag.
StatusOr<SlurmCheckSetup> SlurmCheckSetupFromFlags(const SlurmCheckFlagValues& values,
                                                   const CommonOptions& common);

}  // namespace rocewatch
