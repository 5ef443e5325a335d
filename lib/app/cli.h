#pragma once
// The command line (docs/cli.md): `rocewatch run | diagnose | version`.

namespace rocewatch {

// Parses argv (and ROCEWATCH_* environment variables), runs the subcommand, returns the exit
// status. Never throws; bad input is a one-line error and status 3 for diagnose, 2 otherwise.
int RunCli(int argc, char** argv);

}  // namespace rocewatch
