#pragma once
// What the Slurm health check asks of Slurm and tells it (docs/deploy.md, "Slurm"). Abstract so
// that the check runs on a fake cluster in tests (tests/support/fake_slurm_control.h); the real
// one, ScontrolSlurmControl, runs scontrol and sinfo.

#include <string>
#include <vector>

#include "core/clock.h"
#include "os/command_runner.h"
#include "slurm_check/slurm_node.h"

namespace rocewatch {

class SlurmControl {
 public:
  virtual ~SlurmControl() = default;
  // The node's state, reason and partitions.
  virtual StatusOr<SlurmNode> ShowNode(const std::string& name) = 0;
  // Every node of the partitions (every node of the cluster for an empty list), once each.
  virtual StatusOr<std::vector<SlurmNode>> ListNodes(
      const std::vector<std::string>& partitions) = 0;
  virtual Status Drain(const std::string& name, const std::string& reason) = 0;
  // Clears the drain (scontrol State=UNDRAIN: the base state, e.g. DOWN, is left as it is;
  // State=RESUME is refused by slurmctld for a node that is not responding).
  virtual Status Resume(const std::string& name) = 0;
  virtual Status Requeue(const std::string& job_id) = 0;
};

struct ScontrolOptions {
  std::string scontrol = "/usr/bin/scontrol";
  std::string sinfo = "/usr/bin/sinfo";
  // SLURM_CONF for the commands; empty: Slurm's own default (/etc/slurm/slurm.conf). A health
  // check runs with an empty environment, so nothing else is passed on.
  std::string slurm_conf;
  Duration call_timeout = std::chrono::seconds(5);
};

// Each call runs one command, bounded by min(call_timeout, what is left until `deadline` on
// `clock`); past the deadline no command starts. A command that exits non-zero is an
// Unavailable error quoting the first line of its stderr (bounded, printable).
class ScontrolSlurmControl final : public SlurmControl {
 public:
  ScontrolSlurmControl(const CommandRunner& runner, const Clock& clock, MonoTime deadline,
                       ScontrolOptions options);

  StatusOr<SlurmNode> ShowNode(const std::string& name) override;
  StatusOr<std::vector<SlurmNode>> ListNodes(const std::vector<std::string>& partitions) override;
  Status Drain(const std::string& name, const std::string& reason) override;
  Status Resume(const std::string& name) override;
  Status Requeue(const std::string& job_id) override;

 private:
  StatusOr<std::string> Call(std::vector<std::string> argv);

  const CommandRunner& runner_;
  const Clock& clock_;
  MonoTime deadline_;
  ScontrolOptions options_;
};

}  // namespace rocewatch
