#pragma once
// `rocewatch diagnose`: a one-shot report for a person at a terminal (or a program with --json).

#include <ostream>

#include "daemon/host_env.h"
#include "daemon/options.h"
#include "diagnose/diagnose_report.h"

namespace rocewatch {

// Writes the report to `out`, errors to `err`. Returns the contract's exit status: 0 healthy,
// 1 warnings, 2 critical, 3 could not run.
// Everything of the host comes from `env`.
// The report RunDiagnose renders, for commands that act on its findings (app/
// slurm_check_command.h). `err` gets --watch's live lines. Errors: why it could not run, one
// line without the command's name.
StatusOr<DiagnoseReport> BuildDiagnoseReport(const HostEnv& env, const DiagnoseOptions& options,
                                             std::ostream& err);

int RunDiagnose(const HostEnv& env, const DiagnoseOptions& options, std::ostream& out,
                std::ostream& err, bool out_is_terminal);

}  // namespace rocewatch
