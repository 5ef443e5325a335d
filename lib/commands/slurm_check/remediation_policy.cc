#include "slurm_check/remediation_policy.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace rocewatch {
namespace {

constexpr char kGidDrift[] = "gid_drift";
constexpr char kTrafficCollapsed[] = "traffic_collapsed";
constexpr size_t kSlurmReasonLimit = 120;

// "mlx5_0/1" -> "mlx5_0"; a netdev or another subject as it is.
std::string DeviceOf(const std::string& subject) { return subject.substr(0, subject.find('/')); }

bool AllDigits(const std::string& text) {
  return !text.empty() && text.size() <= 20 && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

bool Drains(const Finding& f, const RemediationInput& input, const RemediationPolicy& policy) {
  if (f.severity == Severity::kInfo || !policy.drain_checks.contains(f.check)) return false;
  if (f.check == kGidDrift)
    return input.consumers != nullptr &&
           input.consumers->KnowledgeOf(DeviceOf(f.subject)) == ConsumerKnowledge::kPresent;
  return true;
}

std::string Evidence(const std::vector<const Finding*>& findings) {
  std::string text;
  for (const Finding* f : findings)
    text += (text.empty() ? "" : "; ") + f->check + " " + f->subject + ": " + f->message;
  return text;
}

BudgetState CountBudget(const RemediationInput& input, const RemediationPolicy& policy) {
  BudgetState budget;
  if (input.scope == nullptr) return budget;
  budget.known = true;
  bool self_listed = false;
  for (const SlurmNode& node : *input.scope) {
    if (node.name == input.node.name) {
      self_listed = true;
      continue;
    }
    if (node.DrainedByRocewatch()) ++budget.drained_by_rocewatch;
  }
  budget.scope_nodes = static_cast<int>(input.scope->size()) + (self_listed ? 0 : 1);
  budget.limit = policy.budget.LimitFor(budget.scope_nodes);
  return budget;
}

std::vector<std::string> CollapsedRailJobs(const std::vector<const Finding*>& draining,
                                           const ConsumerObservation* consumers) {
  std::vector<std::string> jobs;
  if (consumers == nullptr) return jobs;
  for (const Finding* f : draining) {
    if (f->check != kTrafficCollapsed) continue;
    for (const RailConsumer& c : consumers->ConsumersOf(DeviceOf(f->subject)))
      if (AllDigits(c.job) && std::find(jobs.begin(), jobs.end(), c.job) == jobs.end())
        jobs.push_back(c.job);
  }
  return jobs;
}

}  // namespace

std::set<std::string> DefaultDrainChecks() {
  return {kGidDrift,
          "ip_missing_after_flap",
          "gid_index_mismatch",
          "nccl_gid_index_without_roce_v2_gid",
          "rail_address_missing",
          kTrafficCollapsed,
          "link_quality_failing",
          "switch_pfc_missing_roce_priority"};
}

const char* RemediationActionLabel(RemediationAction action) {
  switch (action) {
    case RemediationAction::kNone:
      return "none";
    case RemediationAction::kDrain:
      return "drain";
    case RemediationAction::kKeepDrained:
      return "keep_drained";
    case RemediationAction::kHoldDown:
      return "hold_down";
    case RemediationAction::kResume:
      return "resume";
    case RemediationAction::kRefuseBudget:
      return "refuse";
    case RemediationAction::kLeaveForeignDrain:
      return "leave_foreign_drain";
  }
  return "none";
}

std::string PrintableAscii(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text) {
    if (out.size() >= limit) break;
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u > 0x7e ? '?' : c;
  }
  return out;
}

std::string SlurmReasonText(std::string_view text) {
  std::string out = PrintableAscii(text, kSlurmReasonLimit);
  for (char& c : out)
    if (c == '"' || c == '\'' || c == '\\') c = '_';
  return out;
}

RemediationDecision DecideRemediation(const RemediationInput& input,
                                      const RemediationPolicy& policy) {
  RemediationDecision decision;
  decision.budget = CountBudget(input, policy);
  const SlurmNode& node = input.node;
  if (node.Drained() && !node.DrainedByRocewatch()) {
    decision.action = RemediationAction::kLeaveForeignDrain;
    decision.evidence = "drained by someone else (reason '" + PrintableAscii(node.reason, 200) +
                        "'): rocewatch never touches it";
    return decision;
  }
  std::vector<const Finding*> draining;
  for (const Finding& f : input.findings)
    if (Drains(f, input, policy)) draining.push_back(&f);
  std::stable_sort(draining.begin(), draining.end(),
                   [](const Finding* a, const Finding* b) { return a->severity > b->severity; });

  if (!draining.empty()) {
    decision.reason = draining.front()->check;
    decision.evidence = PrintableAscii(Evidence(draining), 2000);
    if (node.DrainedByRocewatch()) {
      decision.action = RemediationAction::kKeepDrained;
      return decision;
    }
    const BudgetState& budget = decision.budget;
    if (!budget.known || budget.drained_by_rocewatch >= budget.limit) {
      decision.action = RemediationAction::kRefuseBudget;
      decision.evidence =
          (budget.known
               ? std::to_string(budget.drained_by_rocewatch) + " other node(s) of " +
                     std::to_string(budget.scope_nodes) +
                     " are already drained by rocewatch (budget " + std::to_string(budget.limit) +
                     "): several nodes failing together point at the fabric they "
                     "share, which draining cannot fix"
               : std::string("the budget scope could not be listed: not draining "
                             "blind")) +
          "; findings: " + decision.evidence;
      return decision;
    }
    decision.action = RemediationAction::kDrain;
    decision.slurm_reason =
        SlurmReasonText(std::string(kRocewatchReasonPrefix) + " " + draining.front()->check + " " +
                        draining.front()->subject);
    if (policy.requeue_collapsed)
      decision.requeue_jobs = CollapsedRailJobs(draining, input.consumers);
    return decision;
  }

  if (!node.DrainedByRocewatch()) {
    decision.evidence = "no finding that drains";
    return decision;
  }
  decision.reason = "findings_clear";
  const double since = input.clear_since_unix.value_or(input.now_unix);
  const double clear_for = std::max(0.0, input.now_unix - since);
  if (clear_for >= ToSeconds(policy.hold_down)) {
    decision.action = RemediationAction::kResume;
    decision.evidence = "the findings that drained it ('" + PrintableAscii(node.reason, 200) +
                        "') have been clear for " + std::to_string(std::lround(clear_for)) +
                        " s (hold-down " +
                        std::to_string(std::lround(ToSeconds(policy.hold_down))) + " s)";
    return decision;
  }
  decision.action = RemediationAction::kHoldDown;
  decision.clear_since_unix = since;
  decision.evidence = "clear for " + std::to_string(std::lround(clear_for)) + " s of the " +
                      std::to_string(std::lround(ToSeconds(policy.hold_down))) +
                      " s hold-down: stays drained";
  return decision;
}

}  // namespace rocewatch
