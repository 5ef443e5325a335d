// ScontrolSlurmControl on a FakeCommandRunner: the commands it runs, the environment and timeout
// it gives them, and how it reads their answers and failures.
#include "slurm_check/slurm_control.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/fake_command_runner.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

class SlurmControlTest : public ::testing::Test {
 protected:
  SlurmControlTest() {
    options_.slurm_conf = "/etc/slurm/slurm.conf";
    options_.call_timeout = std::chrono::seconds(5);
  }
  ScontrolSlurmControl Slurm(Duration left = std::chrono::seconds(30)) {
    return ScontrolSlurmControl(runner_, clock_, clock_.Now() + left, options_);
  }
  static CommandResult Ok(std::string out) { return {0, std::move(out), ""}; }

  FakeCommandRunner runner_;
  FakeClock clock_;
  ScontrolOptions options_;
};

TEST_F(SlurmControlTest, ShowsTheNodeWithScontrolAndOnlyItsConfigInTheEnvironment) {
  runner_.Answer(Ok("NodeName=n1 State=MIXED+DRAIN Partitions=gpu Reason=rocewatch: x [root@t]\n"));
  StatusOr<SlurmNode> node = Slurm().ShowNode("n1");
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_TRUE(node->DrainedByRocewatch());
  ASSERT_EQ(runner_.calls().size(), 1u);
  EXPECT_EQ(runner_.calls()[0].command, "/usr/bin/scontrol --oneliner show node n1");
  EXPECT_EQ(runner_.calls()[0].env, std::vector<std::string>{"SLURM_CONF=/etc/slurm/slurm.conf"});
  EXPECT_EQ(runner_.calls()[0].timeout, std::chrono::seconds(5));
}

TEST_F(SlurmControlTest, DrainPassesTheReasonAsOneArgument) {
  runner_.Answer(Ok(""));
  ASSERT_TRUE(Slurm().Drain("n1", "rocewatch: gid_drift mlx5_0/1").ok());
  EXPECT_EQ(
      runner_.calls()[0].command,
      "/usr/bin/scontrol update NodeName=n1 State=DRAIN Reason=rocewatch: gid_drift mlx5_0/1");
  runner_.Answer(Ok(""));
  ASSERT_TRUE(Slurm().Resume("n1").ok());
  EXPECT_EQ(runner_.calls()[1].command, "/usr/bin/scontrol update NodeName=n1 State=UNDRAIN");
}

TEST_F(SlurmControlTest, ListsThePartitionsNodesWithSinfo) {
  runner_.Answer(Ok("n1|idle|gpu*|none\nn2|drained|gpu*|rocewatch: x\n"));
  StatusOr<std::vector<SlurmNode>> nodes = Slurm().ListNodes({"gpu", "debug"});
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->size(), 2u);
  EXPECT_EQ(runner_.calls()[0].command,
            "/usr/bin/sinfo --noheader --Node --format=%N|%T|%P|%E --partition=gpu,debug");
}

TEST_F(SlurmControlTest, AFailingCommandIsAnErrorQuotingItsFirstLine) {
  runner_.Answer(CommandResult{1, "", "slurm_update error: Invalid node name specified\nmore\n"});
  Status s = Slurm().Drain("nx", "rocewatch: x");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "/usr/bin/scontrol update exited with status 1: slurm_update error: Invalid node "
            "name specified");
  runner_.Answer(Ok("Node nx not found\n"));
  EXPECT_FALSE(Slurm().ShowNode("nx").ok());
}

TEST_F(SlurmControlTest, EachCallGetsWhatIsLeftOfTheRunsDeadline) {
  runner_.Answer(Ok(""));
  ASSERT_TRUE(Slurm(std::chrono::seconds(2)).Resume("n1").ok());
  EXPECT_EQ(runner_.calls()[0].timeout, std::chrono::seconds(2));
  Status late = Slurm(Duration::zero()).Resume("n1");
  EXPECT_FALSE(late.ok());
  EXPECT_THAT(late.message(), HasSubstr("deadline passed"));
  EXPECT_EQ(runner_.calls().size(), 1u);  // nothing started
}

}  // namespace
}  // namespace rocewatch
