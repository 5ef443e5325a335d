#include "slurm_check/slurm_control.h"

#include <algorithm>

#include "core/duration.h"
#include "core/text.h"
#include "slurm_check/remediation_policy.h"

namespace rocewatch {

ScontrolSlurmControl::ScontrolSlurmControl(const CommandRunner& runner, const Clock& clock,
                                           MonoTime deadline, ScontrolOptions options)
    : runner_(runner), clock_(clock), deadline_(deadline), options_(std::move(options)) {}

StatusOr<std::string> ScontrolSlurmControl::Call(std::vector<std::string> argv) {
  const Duration left = deadline_ - clock_.Now();
  if (left <= Duration::zero())
    return Status::Unavailable("the run's deadline passed before `" + argv[0] + "` could start");
  std::vector<std::string> env;
  if (!options_.slurm_conf.empty()) env.push_back("SLURM_CONF=" + options_.slurm_conf);
  StatusOr<CommandResult> result = runner_.Run(argv, env, std::min(options_.call_timeout, left));
  if (!result.ok()) return result.status();
  if (result->exit_status != 0) {
    std::vector<std::string_view> lines = SplitLines(result->err);
    std::string first = lines.empty() ? "no message" : std::string(Trim(lines.front()));
    std::string command = argv[0] + (argv.size() > 1 ? " " + argv[1] : "");
    return Status::Unavailable(command + " exited with status " +
                               std::to_string(result->exit_status) + ": " +
                               PrintableAscii(first, 200));
  }
  return std::move(result->out);
}

StatusOr<SlurmNode> ScontrolSlurmControl::ShowNode(const std::string& name) {
  StatusOr<std::string> out = Call({options_.scontrol, "--oneliner", "show", "node", name});
  if (!out.ok()) return out.status();
  for (std::string_view line : SplitLines(*out)) {
    StatusOr<SlurmNode> node = ParseScontrolNode(line);
    if (node.ok() && node->name == name) return node;
  }
  return Status::NotFound("scontrol show node " + name + " did not list the node");
}

StatusOr<std::vector<SlurmNode>> ScontrolSlurmControl::ListNodes(
    const std::vector<std::string>& partitions) {
  std::vector<std::string> argv = {options_.sinfo, "--noheader", "--Node", "--format=%N|%T|%P|%E"};
  if (!partitions.empty()) {
    std::string list;
    for (const std::string& p : partitions) list += (list.empty() ? "" : ",") + p;
    argv.push_back("--partition=" + list);
  }
  StatusOr<std::string> out = Call(argv);
  if (!out.ok()) return out.status();
  return ParseSinfoNodes(*out);
}

Status ScontrolSlurmControl::Drain(const std::string& name, const std::string& reason) {
  return Call({options_.scontrol, "update", "NodeName=" + name, "State=DRAIN", "Reason=" + reason})
      .status();
}

Status ScontrolSlurmControl::Resume(const std::string& name) {
  return Call({options_.scontrol, "update", "NodeName=" + name, "State=UNDRAIN"}).status();
}

Status ScontrolSlurmControl::Requeue(const std::string& job_id) {
  return Call({options_.scontrol, "requeue", job_id}).status();
}

}  // namespace rocewatch
