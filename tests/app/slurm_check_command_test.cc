// `rocewatch slurm-check` run in-process: the bundled example node (a job pinning
// NCCL_IB_GID_INDEX=3 on a rail whose GID moved to 5) in a temporary host root, a Slurm cluster in
// memory (tests/support/fake_slurm_control.h), the record and metrics file in the temporary
// directory. What Slurm is told follows from the host, the node's state and the budget.
#include "slurm_check/slurm_check_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "support/example_node.h"
#include "support/fake_host_env.h"
#include "support/fake_slurm_control.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kDrainReason[] = "rocewatch: nccl_gid_index_without_roce_v2_gid pid 4242 (python3)";

class SlurmCheckCommandTest : public ::testing::Test {
 protected:
  SlurmCheckCommandTest() {
    EXPECT_TRUE(WriteExampleNode(dir_.path()).ok());
    options_.node = "n1";
    options_.diagnose.common.paths = HostPaths::ForRoots(dir_.path());
    options_.diagnose.common.gid_source = GidSourceChoice::kSysfs;
    options_.diagnose.daemon.reset();
    options_.diagnose.consumers.kubelet_socket = "none";
    options_.diagnose.optics = false;
    options_.diagnose.link_window = Duration::zero();
    options_.policy.budget = *ParseDrainBudget("2");
    options_.state_file = dir_.path() + "/state/slurm-check.json";
    options_.metrics_file = dir_.path() + "/rocewatch-slurm-check.prom";
    slurm_.Node("n1").Node("n2").Node("n3").Node("n4");
  }
  int Check() {
    std::ostringstream out;
    int status = RunSlurmCheck(host_.env(), slurm_, writer_, options_, out);
    out_ = out.str();
    return status;
  }
  // The drifted rail's GIDs back at their indices (a fresh sysfs tree of the same 8 rails).
  void Heal() {
    std::filesystem::remove_all(dir_.path() + "/sys");
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(8)).ok());
  }
  void Drift() {
    std::filesystem::remove_all(dir_.path() + "/sys");
    ASSERT_TRUE(WriteExampleNode(dir_.path()).ok());
  }
  std::string Read(const std::string& path) {
    return fs_.ReadFile(path, 1 << 20).value_or("<missing>");
  }
  std::vector<std::string> Updates() {
    std::vector<std::string> updates;
    for (const std::string& call : slurm_.calls())
      if (call.rfind("show", 0) != 0 && call.rfind("list", 0) != 0) updates.push_back(call);
    return updates;
  }

  TempDir dir_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};
  FakeSlurmControl slurm_;
  PosixStateFileWriter writer_;
  SlurmCheckOptions options_;
  std::string out_;
};

TEST_F(SlurmCheckCommandTest, DrainsOnAPinnedIndexWithoutItsGidAndSaysWhy) {
  EXPECT_EQ(Check(), 0);
  EXPECT_THAT(Updates(), ElementsAre(std::string("drain n1 ") + kDrainReason));
  EXPECT_EQ(slurm_.node("n1").reason, kDrainReason);
  EXPECT_THAT(out_, HasSubstr("node n1: drain (Reason=\"rocewatch: nccl_gid_index"));
  EXPECT_THAT(out_, HasSubstr("mlx5_3/1 index 3 is empty"));  // the evidence
  EXPECT_THAT(Read(options_.metrics_file),
              HasSubstr("rocewatch_remediation_actions_total{action=\"drain\",reason=\"nccl_gid_"
                        "index_without_roce_v2_gid\"} 1"));
  EXPECT_THAT(Read(options_.metrics_file),
              HasSubstr("rocewatch_remediation_node_drained{node=\"n1\"} 1"));
  EXPECT_THAT(Read(options_.state_file), HasSubstr("mlx5_3/1 index 3 is empty"));
}

TEST_F(SlurmCheckCommandTest, RunningAgainChangesNothing) {
  ASSERT_EQ(Check(), 0);
  ASSERT_EQ(Check(), 0);
  EXPECT_EQ(Updates().size(), 1u);
  EXPECT_THAT(out_, HasSubstr("keep_drained"));
  EXPECT_THAT(Read(options_.metrics_file),
              HasSubstr("reason=\"nccl_gid_index_without_roce_v2_gid\"} 1"));
}

TEST_F(SlurmCheckCommandTest, ResumesOnlyAfterTheFindingsStayedClearForTheHoldDown) {
  ASSERT_EQ(Check(), 0);
  Heal();
  ASSERT_EQ(Check(), 0);
  EXPECT_THAT(out_, HasSubstr("hold_down"));
  host_.clock().Advance(std::chrono::minutes(9));
  ASSERT_EQ(Check(), 0);
  EXPECT_TRUE(slurm_.node("n1").Drained());
  host_.clock().Advance(std::chrono::minutes(1));
  ASSERT_EQ(Check(), 0);
  EXPECT_THAT(Updates(), ElementsAre(std::string("drain n1 ") + kDrainReason, "resume n1"));
  EXPECT_THAT(out_, HasSubstr("have been clear for 600 s"));
  EXPECT_THAT(Read(options_.metrics_file),
              HasSubstr("rocewatch_remediation_actions_total{action=\"resume\",reason=\"findings_"
                        "clear\"} 1"));
}

TEST_F(SlurmCheckCommandTest, AFindingBackDuringTheHoldDownRestartsIt) {
  ASSERT_EQ(Check(), 0);
  Heal();
  ASSERT_EQ(Check(), 0);  // clear since now
  host_.clock().Advance(std::chrono::minutes(8));
  Drift();
  ASSERT_EQ(Check(), 0);
  Heal();
  host_.clock().Advance(std::chrono::minutes(5));
  ASSERT_EQ(Check(), 0);  // clear again, for 0 s of the hold-down
  EXPECT_TRUE(slurm_.node("n1").Drained());
  EXPECT_EQ(Updates().size(), 1u);
}

TEST_F(SlurmCheckCommandTest, NodeDrainedByHandIsLeftAlone) {
  slurm_.Node("n1", "admin: replacing DIMM");
  EXPECT_EQ(Check(), 0);
  EXPECT_TRUE(Updates().empty());
  EXPECT_EQ(slurm_.node("n1").reason, "admin: replacing DIMM");
  EXPECT_THAT(out_, HasSubstr("leave_foreign_drain"));
}

TEST_F(SlurmCheckCommandTest, RefusesPastTheBudgetAndReportsAFabricProblem) {
  slurm_.Node("n2", "rocewatch: traffic_collapsed mlx5_0/1")
      .Node("n3", "rocewatch: traffic_collapsed mlx5_0/1");
  EXPECT_EQ(Check(), 1);
  EXPECT_TRUE(Updates().empty());
  EXPECT_FALSE(slurm_.node("n1").Drained());
  EXPECT_THAT(out_, HasSubstr("refuse"));
  const std::string metrics = Read(options_.metrics_file);
  EXPECT_THAT(metrics, HasSubstr("rocewatch_remediation_fabric_problem{node=\"n1\"} 1"));
  EXPECT_THAT(metrics, HasSubstr("rocewatch_remediation_budget_drained_nodes{node=\"n1\"} 2"));
  EXPECT_THAT(metrics, HasSubstr("rocewatch_remediation_actions_total{action=\"refuse\""));
}

TEST_F(SlurmCheckCommandTest, SlurmNotAnsweringLeavesTheNodeAsItWas) {
  slurm_.Fail("show", Status::Unavailable("/usr/bin/scontrol timed out after 5s (killed)"));
  EXPECT_EQ(Check(), 2);
  EXPECT_THAT(out_, HasSubstr("cannot read the node's Slurm state (/usr/bin/scontrol timed out"));
  EXPECT_THAT(out_, HasSubstr("left as it was"));
  EXPECT_TRUE(Updates().empty());
  EXPECT_THAT(Read(options_.metrics_file),
              HasSubstr("rocewatch_remediation_run_success{node=\"n1\"} 0"));
}

TEST_F(SlurmCheckCommandTest, AFailedDrainIsToldAndNotCounted) {
  slurm_.Fail("drain", Status::Unavailable("scontrol update exited with status 1: Invalid node"));
  EXPECT_EQ(Check(), 2);
  EXPECT_THAT(out_, HasSubstr("could not drain (scontrol update exited with status 1"));
  EXPECT_THAT(Read(options_.metrics_file), Not(HasSubstr("action=\"drain\"")));
}

TEST_F(SlurmCheckCommandTest, ADaemonThatDoesNotAnswerLeavesTheOneShotChecksToDecide) {
  options_.diagnose.daemon = HttpUrl{"127.0.0.1", 9879, "/", ""};
  options_.diagnose.daemon_text = "http://127.0.0.1:9879";
  EXPECT_EQ(Check(), 0);
  EXPECT_THAT(out_, HasSubstr("no rocewatch daemon answered at http://127.0.0.1:9879"));
  EXPECT_THAT(out_, HasSubstr("deciding on this run's one-shot checks"));
  EXPECT_EQ(Updates().size(), 1u);
}

TEST_F(SlurmCheckCommandTest, DryRunDecidesButChangesNothing) {
  options_.dry_run = true;
  EXPECT_EQ(Check(), 0);
  EXPECT_THAT(out_, HasSubstr("would drain"));
  EXPECT_TRUE(Updates().empty());
  EXPECT_EQ(Read(options_.metrics_file), "<missing>");
}

TEST_F(SlurmCheckCommandTest, ACorruptRecordStartsAfresh) {
  dir_.WriteFile("state/slurm-check.json", "{not json");
  EXPECT_EQ(Check(), 0);
  EXPECT_THAT(out_, HasSubstr("is unreadable"));
  EXPECT_THAT(Read(options_.state_file), HasSubstr("\"version\": 1"));
}

}  // namespace
}  // namespace rocewatch
