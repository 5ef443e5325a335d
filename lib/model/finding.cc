#include "model/finding.h"

namespace rocewatch {

const char* SeverityLabel(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kCritical:
      return "critical";
  }
  return "info";
}

Severity WorstSeverity(const std::vector<Finding>& findings) {
  Severity worst = Severity::kInfo;
  for (const Finding& f : findings)
    if (f.severity > worst) worst = f.severity;
  return worst;
}

}  // namespace rocewatch
