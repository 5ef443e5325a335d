#pragma once
// A finding: something a detector or a diagnose check concluded, for a person to act on.

#include <string>
#include <vector>

namespace rocewatch {

enum class Severity { kInfo = 0, kWarning = 1, kCritical = 2 };
const char* SeverityLabel(Severity severity);  // "info", "warning", "critical"

struct Finding {
  Severity severity = Severity::kInfo;
  std::string check;    // stable short_snake_case id, documented in docs/diagnose.md
  std::string subject;  // "mlx5_0/1" or a netdev name
  std::string message;  // what is wrong, with the evidence
  std::string remedy;   // what to do about it

  bool operator==(const Finding&) const = default;
};

// The worst severity among findings; kInfo for none.
Severity WorstSeverity(const std::vector<Finding>& findings);

}  // namespace rocewatch
