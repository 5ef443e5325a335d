#include "slurm_check/slurm_check_command.h"

#include <sstream>

#include "diagnose/diagnose_command.h"
#include "slurm_check/remediation_metrics.h"
#include "slurm_check/remediation_record.h"

namespace rocewatch {
namespace {

constexpr size_t kMaxRecordBytes = 1 << 20;

class CheckRun {
 public:
  CheckRun(const HostEnv& env, SlurmControl& slurm, StateFileWriter& writer,
           const SlurmCheckOptions& options, std::ostream& out)
      : env_(env), slurm_(slurm), writer_(writer), options_(options), out_(out) {}

  int Run();

 private:
  void Say(const std::string& line) {
    out_ << "rocewatch slurm-check: node " << PrintableAscii(options_.node, 64) << ": "
         << PrintableAscii(line, 4000) << "\n";
  }
  RemediationRecord ReadRecord();
  void SayWhereFindingsCameFrom(const DiagnoseReport& report);
  // Carries the decision out in Slurm. false when Slurm refused or did not answer.
  bool Act(const RemediationDecision& decision);
  // Writes the record and the metrics file; failures are told, not fatal.
  void Keep(RemediationRecord& record, bool drained_by_rocewatch, bool success);

  const HostEnv& env_;
  SlurmControl& slurm_;
  StateFileWriter& writer_;
  const SlurmCheckOptions& options_;
  std::ostream& out_;
};

RemediationRecord CheckRun::ReadRecord() {
  if (options_.state_file.empty()) return {};
  StatusOr<std::string> text = env_.files->ReadFile(options_.state_file, kMaxRecordBytes);
  if (!text.ok()) return {};  // a first run: no record yet
  StatusOr<RemediationRecord> record = ParseRemediationRecord(*text);
  if (record.ok()) return *record;
  Say("the record " + options_.state_file + " is unreadable (" + record.status().message() +
      "): starting a new one");
  return {};
}

void CheckRun::SayWhereFindingsCameFrom(const DiagnoseReport& report) {
  for (const Finding& f : report.findings) {
    if (f.check == "daemon_unreachable" || f.check == "daemon_other_host")
      Say(f.message + "; deciding on this run's one-shot checks");
    if (f.check == "daemon") Say(f.message);
  }
}

bool CheckRun::Act(const RemediationDecision& decision) {
  if (options_.dry_run) return true;
  Status done = Status::Ok();
  if (decision.action == RemediationAction::kDrain)
    done = slurm_.Drain(options_.node, decision.slurm_reason);
  if (decision.action == RemediationAction::kResume) done = slurm_.Resume(options_.node);
  if (!done.ok()) {
    Say(std::string("could not ") + RemediationActionLabel(decision.action) + " (" +
        done.message() + "): the node is left as it was");
    return false;
  }
  return true;
}

void CheckRun::Keep(RemediationRecord& record, bool drained_by_rocewatch, bool success) {
  if (options_.dry_run) return;
  if (!options_.state_file.empty()) {
    Status written = writer_.WriteAtomically(options_.state_file, RemediationRecordToJson(record));
    if (!written.ok())
      Say("cannot write the record " + options_.state_file + ": " + written.message());
  }
  if (!options_.metrics_file.empty()) {
    std::string text =
        RemediationMetricsText(record, {options_.node, drained_by_rocewatch, success});
    Status written = writer_.WriteAtomically(options_.metrics_file, text);
    if (!written.ok())
      Say("cannot write the metrics file " + options_.metrics_file + ": " + written.message());
  }
}

int CheckRun::Run() {
  RemediationRecord record = ReadRecord();
  record.last_run_unix = env_.clock->UnixSeconds();
  StatusOr<SlurmNode> node = slurm_.ShowNode(options_.node);
  if (!node.ok()) {
    Say("cannot read the node's Slurm state (" + node.status().message() +
        "): the node is left as it was");
    Keep(record, false, false);
    return 2;
  }
  std::ostringstream progress;  // --watch is not used: nothing is written here
  StatusOr<DiagnoseReport> report = BuildDiagnoseReport(env_, options_.diagnose, progress);
  if (!report.ok()) {
    Say("cannot run the checks (" + report.status().message() + "): the node is left as it was");
    Keep(record, node->DrainedByRocewatch(), false);
    return 2;
  }
  SayWhereFindingsCameFrom(*report);
  const std::vector<std::string> partitions =
      options_.budget_per_partition ? node->partitions : std::vector<std::string>{};
  StatusOr<std::vector<SlurmNode>> scope = slurm_.ListNodes(partitions);
  if (!scope.ok())
    Say("cannot count the drained nodes of the budget scope (" + scope.status().message() + ")");

  RemediationInput input;
  input.findings = report->findings;
  input.consumers = report->consumers ? &*report->consumers : nullptr;
  input.node = *node;
  input.scope = scope.ok() ? &*scope : nullptr;
  input.clear_since_unix = record.clear_since_unix;
  input.now_unix = record.last_run_unix;
  const RemediationDecision decision = DecideRemediation(input, options_.policy);

  const std::string label = RemediationActionLabel(decision.action);
  std::string line = (options_.dry_run ? "would " : "") + label;
  if (decision.action == RemediationAction::kDrain)
    line += " (Reason=\"" + decision.slurm_reason + "\")";
  Say(line + ": " + decision.evidence);
  const bool acted = Act(decision);
  bool drained = node->DrainedByRocewatch();
  record.clear_since_unix = decision.clear_since_unix;
  record.last_budget = decision.budget;
  record.fabric_problem = decision.action == RemediationAction::kRefuseBudget;
  const bool changes = decision.action == RemediationAction::kDrain ||
                       decision.action == RemediationAction::kResume ||
                       decision.action == RemediationAction::kRefuseBudget;
  if (acted && changes) {
    record.Note({record.last_run_unix, options_.node, label, decision.reason, decision.evidence});
    if (decision.action == RemediationAction::kDrain) drained = true;
    if (decision.action == RemediationAction::kResume) drained = false;
  }
  if (acted && decision.action == RemediationAction::kDrain) {
    for (const std::string& job : decision.requeue_jobs) {
      Status requeued = options_.dry_run ? Status::Ok() : slurm_.Requeue(job);
      Say((requeued.ok() ? "requeued job " + job
                         : "could not requeue job " + job + " (" + requeued.message() + ")") +
          " (its rail's traffic collapsed)");
      if (requeued.ok())
        record.Note(
            {record.last_run_unix, options_.node, "requeue", decision.reason, "job " + job});
    }
  }
  Keep(record, drained, acted);
  if (!acted) return 2;
  return decision.action == RemediationAction::kRefuseBudget ? 1 : 0;
}

}  // namespace

int RunSlurmCheck(const HostEnv& env, SlurmControl& slurm, StateFileWriter& writer,
                  const SlurmCheckOptions& options, std::ostream& out) {
  return CheckRun(env, slurm, writer, options, out).Run();
}

}  // namespace rocewatch
