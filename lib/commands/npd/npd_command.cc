#include "npd/npd_command.h"

#include <sstream>
#include <string>

#include "diagnose/diagnose_command.h"
#include "diagnose/npd_verdict.h"

namespace rocewatch {
namespace {

// The last non-empty line of diagnose's error output, without the "rocewatch diagnose: " prefix:
// the reason it gave up (earlier lines are progress, e.g. under --watch).
std::string FailureReason(const std::string& errors) {
  std::istringstream lines(errors);
  std::string line, last = "unknown error";
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  constexpr std::string_view kPrefix = "rocewatch diagnose: ";
  if (last.rfind(kPrefix, 0) == 0) last.erase(0, kPrefix.size());
  return last;
}

}  // namespace

int RunDiagnoseForNpd(const HostEnv& env, const DiagnoseOptions& options, std::ostream& out) {
  std::ostringstream errors;
  int status = RunDiagnose(env, options, out, errors, /*out_is_terminal=*/false);
  if (status == kNpdOk || status == kNpdNonOk) return status;
  return ReportNpdCouldNotRun(FailureReason(errors.str()), out);
}

int ReportNpdCouldNotRun(std::string_view reason, std::ostream& out) {
  NpdVerdict verdict = NpdCouldNotRun(reason);
  out << verdict.message << "\n";
  return verdict.exit_status;
}

}  // namespace rocewatch
