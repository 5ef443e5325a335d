#pragma once
// The command line (docs/cli.md): `rocewatch run | diagnose | version`.

#include "daemon/host_env.h"

namespace rocewatch {

// Parses argv (and ROCEWATCH_* environment variables), runs the subcommand on `env` (the host:
// RealHostEnv in main), returns the exit status. Never throws; bad input is a one-line error and
// status 3 for diagnose, 2 otherwise.
int RunCli(const HostEnv& env, int argc, char** argv);

}  // namespace rocewatch
