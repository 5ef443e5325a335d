#pragma once
// `rocewatch diagnose --npd`: diagnose as a node-problem-detector custom plugin (deploy/npd).
// Whatever happens, stdout gets exactly one line and the exit status is NPD's: 0 OK, 1 NonOK,
// 2 Unknown (diagnose/npd_verdict.h). Diagnose's own error output is not shown to NPD: the reason a
// run failed becomes the Unknown line.

#include <ostream>
#include <string_view>

#include "daemon/host_env.h"
#include "daemon/options.h"

namespace rocewatch {

// REQUIRES: options.npd.
int RunDiagnoseForNpd(const HostEnv& env, const DiagnoseOptions& options, std::ostream& out);

// For failures before diagnose runs (bad flags): the Unknown line on `out`; returns 2.
int ReportNpdCouldNotRun(std::string_view reason, std::ostream& out);

}  // namespace rocewatch
