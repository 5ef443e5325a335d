// PosixCommandRunner against real programs (/bin/sh): output, exit status, the environment given
// and nothing else, a hang killed at its timeout, a program that does not exist.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "os/command_runner.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

TEST(PosixCommandRunnerTest, CollectsOutputAndExitStatusWithOnlyTheGivenEnvironment) {
  PosixCommandRunner runner;
  StatusOr<CommandResult> result =
      runner.Run({"/bin/sh", "-c", "echo out:$SLURM_CONF:$HOME; echo err >&2; exit 3"},
                 {"SLURM_CONF=/x/slurm.conf"}, std::chrono::seconds(10));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->exit_status, 3);
  EXPECT_EQ(result->out, "out:/x/slurm.conf:\n");
  EXPECT_EQ(result->err, "err\n");
}

TEST(PosixCommandRunnerTest, AHangIsKilledAtItsTimeout) {
  PosixCommandRunner runner;
  const auto start = std::chrono::steady_clock::now();
  StatusOr<CommandResult> result =
      runner.Run({"/bin/sh", "-c", "sleep 30"}, {}, std::chrono::milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("timed out after 300ms (killed)"));
  EXPECT_LT(took, std::chrono::seconds(5));
}

TEST(PosixCommandRunnerTest, AMissingProgramIsAnError) {
  PosixCommandRunner runner;
  StatusOr<CommandResult> result =
      runner.Run({"/nonexistent/scontrol"}, {}, std::chrono::seconds(5));
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("cannot run /nonexistent/scontrol"));
  EXPECT_FALSE(runner.Run({}, {}, std::chrono::seconds(1)).ok());
}

}  // namespace
}  // namespace rocewatch
