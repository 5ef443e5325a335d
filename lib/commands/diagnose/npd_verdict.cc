#include "diagnose/npd_verdict.h"

#include <algorithm>
#include <cstddef>

#include "core/terminal_text.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// NPD shows the message as given, and people read it on a terminal (kubectl describe node): keep
// it on one line, whatever the finding's text holds, with no control character left raw.
std::string OneLine(std::string_view text) {
  std::string line;
  line.reserve(text.size());
  for (char c : text) line.push_back(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return TerminalSafe(line);
}

// The check's place in the severity table, which lists causes before their consequences; a check
// missing from it after every listed one.
size_t CausalRank(std::string_view check) {
  const auto policies = CheckPolicies();
  for (size_t i = 0; i < policies.size(); ++i)
    if (policies[i].check == check) return i;
  return policies.size();
}

// True when `a` names the node's problem before `b`: more severe, then earlier in the table, then
// the smaller subject.
bool NamedBefore(const Finding& a, const Finding& b) {
  if (a.severity != b.severity) return a.severity > b.severity;
  const size_t rank_a = CausalRank(a.check), rank_b = CausalRank(b.check);
  if (rank_a != rank_b) return rank_a < rank_b;
  return a.subject < b.subject;
}

}  // namespace

NpdVerdict NpdVerdictFor(const std::vector<Finding>& findings) {
  const Finding* worst = nullptr;
  size_t problems = 0;  // warnings and critical findings
  for (const Finding& f : findings) {
    if (f.severity == Severity::kInfo) continue;
    ++problems;
    if (worst == nullptr || NamedBefore(f, *worst)) worst = &f;
  }
  if (worst == nullptr) return {kNpdOk, std::string(kNpdHealthyMessage)};

  std::string message = std::string(SeverityLabel(worst->severity)) + " " + worst->check + " on " +
                        worst->subject + ": " + worst->message;
  if (problems > 1) message += " (+" + std::to_string(problems - 1) + " more)";
  return {worst->severity == Severity::kCritical ? kNpdNonOk : kNpdOk, OneLine(message)};
}

NpdVerdict NpdCouldNotRun(std::string_view reason) {
  return {kNpdUnknown, OneLine("rocewatch diagnose could not run: " + std::string(reason))};
}

}  // namespace rocewatch
