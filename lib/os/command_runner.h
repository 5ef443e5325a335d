#pragma once
// Runs a program and collects what it prints, within a deadline: the seam between the Slurm
// health check and Slurm's commands (scontrol, sinfo). Abstract so that tests answer in place of
// the programs and record what was run (tests/support/fake_command_runner.h).

#include <string>
#include <vector>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

struct CommandResult {
  int exit_status = 0;  // the program's exit status; 128 + N when killed by signal N
  std::string out;      // stdout, at most CommandRunner::kMaxOutputBytes
  std::string err;      // stderr, at most CommandRunner::kMaxOutputBytes
};

class CommandRunner {
 public:
  static constexpr size_t kMaxOutputBytes = 1 << 20;
  virtual ~CommandRunner() = default;
  // Runs argv[0] (an absolute path: nothing is looked up on PATH) with argv and exactly the
  // environment `env` ("NAME=value" entries), stdin from /dev/null. A program still running at
  // `timeout` is killed (SIGKILL) and waited for. Errors: Unavailable "timed out" (killed at the
  // timeout), FromErrno of a failed start (no such program), InvalidArgument for an empty argv.
  // A program that ran and failed is a result, not an error.
  virtual StatusOr<CommandResult> Run(const std::vector<std::string>& argv,
                                      const std::vector<std::string>& env,
                                      Duration timeout) const = 0;
};

class PosixCommandRunner final : public CommandRunner {
 public:
  StatusOr<CommandResult> Run(const std::vector<std::string>& argv,
                              const std::vector<std::string>& env, Duration timeout) const override;
};

}  // namespace rocewatch
