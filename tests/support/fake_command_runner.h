#pragma once
// Answers in place of programs (scontrol, sinfo) and records what was run: the argv joined by
// spaces, the environment, and the timeout given.

#include <deque>
#include <string>
#include <vector>

#include "os/command_runner.h"

namespace rocewatch {

class FakeCommandRunner final : public CommandRunner {
 public:
  struct Call {
    std::string command;  // argv joined by ' '
    std::vector<std::string> env;
    Duration timeout;
  };
  // The next run answers this (in order); with none left, a run fails "no answer scripted".
  void Answer(StatusOr<CommandResult> answer) { answers_.push_back(std::move(answer)); }
  const std::vector<Call>& calls() const { return calls_; }

  StatusOr<CommandResult> Run(const std::vector<std::string>& argv,
                              const std::vector<std::string>& env,
                              Duration timeout) const override {
    std::string command;
    for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
    calls_.push_back({command, env, timeout});
    if (answers_.empty()) return Status::Internal("no answer scripted for " + command);
    StatusOr<CommandResult> answer = answers_.front();
    answers_.pop_front();
    return answer;
  }

 private:
  mutable std::deque<StatusOr<CommandResult>> answers_;
  mutable std::vector<Call> calls_;
};

}  // namespace rocewatch
