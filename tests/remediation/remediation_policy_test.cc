#include "slurm_check/remediation_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

SlurmNode Node(std::string name, std::string state, std::string reason = "") {
  return {std::move(name), std::move(state), std::move(reason), {"gpu"}};
}

RailConsumer Consumer(int pid, std::string job) {
  RailConsumer consumer;
  consumer.pid = pid;
  consumer.comm = "python3";
  consumer.job = std::move(job);
  return consumer;
}

Finding Critical(std::string check, std::string subject) {
  return {Severity::kCritical, std::move(check), std::move(subject), "the evidence", "a remedy"};
}

class RemediationPolicyTest : public ::testing::Test {
 protected:
  RemediationPolicyTest() {
    input.node = Node("n1", "IDLE");
    scope = {Node("n1", "IDLE"), Node("n2", "IDLE"), Node("n3", "IDLE"), Node("n4", "IDLE")};
    input.scope = &scope;
    input.now_unix = 10000;
    policy.budget = {2, std::nullopt};
    policy.hold_down = std::chrono::minutes(10);
    consumers.devices["mlx5_0"].knowledge = ConsumerKnowledge::kPresent;
    consumers.devices["mlx5_0"].consumers = {Consumer(4100, "8812")};
    consumers.devices["mlx5_1"].knowledge = ConsumerKnowledge::kNone;
    input.consumers = &consumers;
  }
  RemediationDecision Decide() { return DecideRemediation(input, policy); }

  RemediationInput input;
  std::vector<SlurmNode> scope;
  ConsumerObservation consumers;
  RemediationPolicy policy;
};

TEST_F(RemediationPolicyTest, HealthyUndrainedNodeIsLeftAlone) {
  input.findings = {{Severity::kWarning, "gid_table_hole", "mlx5_0/1", "m", "r"}};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kNone);
  EXPECT_FALSE(d.clear_since_unix);
}

TEST_F(RemediationPolicyTest, CriticalFindingOfTheListDrainsWithCheckAndSubjectAsReason) {
  input.findings = {Critical("nccl_gid_index_without_roce_v2_gid", "job 8812: pid 4100 (python3)")};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kDrain);
  EXPECT_EQ(d.slurm_reason,
            "rocewatch: nccl_gid_index_without_roce_v2_gid job 8812: pid 4100 (python3)");
  EXPECT_EQ(d.reason, "nccl_gid_index_without_roce_v2_gid");
  EXPECT_THAT(d.evidence, HasSubstr("the evidence"));
  EXPECT_TRUE(d.requeue_jobs.empty());  // requeue is off by default
}

TEST_F(RemediationPolicyTest, ChecksOutsideTheListAndInfoFindingsDoNotDrain) {
  input.findings = {Critical("optics_alarm", "ens1f0np0"),
                    {Severity::kInfo, "traffic_collapsed", "mlx5_0/1", "m", "r"}};
  EXPECT_EQ(Decide().action, RemediationAction::kNone);
  policy.drain_checks = {"optics_alarm"};
  EXPECT_EQ(Decide().action, RemediationAction::kDrain);
}

TEST_F(RemediationPolicyTest, GidDriftDrainsOnlyWhereTheDeviceHasConsumers) {
  input.findings = {Critical("gid_drift", "mlx5_1/1")};  // nobody holds mlx5_1
  EXPECT_EQ(Decide().action, RemediationAction::kNone);
  input.findings = {Critical("gid_drift", "mlx5_0/1")};
  EXPECT_EQ(Decide().action, RemediationAction::kDrain);
  input.consumers = nullptr;  // consumers unknown
  EXPECT_EQ(Decide().action, RemediationAction::kNone);
}

TEST_F(RemediationPolicyTest, NodeDrainedBySomeoneElseIsNeverTouched) {
  input.node = Node("n1", "IDLE+DRAIN", "admin: bad dimm");
  input.findings = {Critical("traffic_collapsed", "mlx5_0/1")};
  EXPECT_EQ(Decide().action, RemediationAction::kLeaveForeignDrain);
  input.findings.clear();
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kLeaveForeignDrain);  // not resumed either
  EXPECT_THAT(d.evidence, HasSubstr("admin: bad dimm"));
}

TEST_F(RemediationPolicyTest, NodeRocewatchDrainedStaysDrainedWhileFindingsLast) {
  input.node = Node("n1", "MIXED+DRAIN", "rocewatch: traffic_collapsed mlx5_0/1");
  input.findings = {Critical("traffic_collapsed", "mlx5_0/1")};
  input.clear_since_unix = 9000;
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kKeepDrained);
  EXPECT_FALSE(d.clear_since_unix);  // a finding back restarts the hold-down
}

TEST_F(RemediationPolicyTest, ResumeWaitsForTheFindingsToStayClearForTheHoldDown) {
  input.node = Node("n1", "IDLE+DRAIN", "rocewatch: traffic_collapsed mlx5_0/1");
  RemediationDecision first = Decide();  // the first clear run starts the clock
  EXPECT_EQ(first.action, RemediationAction::kHoldDown);
  ASSERT_TRUE(first.clear_since_unix);
  EXPECT_EQ(*first.clear_since_unix, 10000);
  input.clear_since_unix = first.clear_since_unix;
  input.now_unix = 10000 + 599;
  EXPECT_EQ(Decide().action, RemediationAction::kHoldDown);
  input.now_unix = 10000 + 600;
  RemediationDecision resume = Decide();
  EXPECT_EQ(resume.action, RemediationAction::kResume);
  EXPECT_EQ(resume.reason, "findings_clear");
  EXPECT_FALSE(resume.clear_since_unix);
}

TEST_F(RemediationPolicyTest, ZeroHoldDownResumesOnTheFirstClearRun) {
  policy.hold_down = Duration::zero();
  input.node = Node("n1", "IDLE+DRAIN", "rocewatch: gid_drift mlx5_0/1");
  EXPECT_EQ(Decide().action, RemediationAction::kResume);
}

TEST_F(RemediationPolicyTest, BudgetSpentRefusesAndNamesTheFabric) {
  scope[1] = Node("n2", "IDLE+DRAIN", "rocewatch: traffic_collapsed mlx5_0/1");
  scope[2] = Node("n3", "DOWN+DRAIN", "rocewatch: link_quality_failing ens1f0np0");
  input.findings = {Critical("traffic_collapsed", "mlx5_0/1")};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kRefuseBudget);
  EXPECT_EQ(d.reason, "traffic_collapsed");
  EXPECT_EQ(d.budget.drained_by_rocewatch, 2);
  EXPECT_EQ(d.budget.limit, 2);
  EXPECT_EQ(d.budget.scope_nodes, 4);
  EXPECT_THAT(d.evidence, HasSubstr("fabric"));
}

TEST_F(RemediationPolicyTest, NodesDrainedByHandDoNotSpendTheBudget) {
  scope[1] = Node("n2", "IDLE+DRAIN", "rocewatch: traffic_collapsed mlx5_0/1");
  scope[2] = Node("n3", "IDLE+DRAIN", "admin: bad dimm");
  scope[3] = Node("n4", "IDLE+DRAIN", "replaced the rocewatch: cable");
  input.findings = {Critical("traffic_collapsed", "mlx5_0/1")};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kDrain);
  EXPECT_EQ(d.budget.drained_by_rocewatch, 1);
}

TEST_F(RemediationPolicyTest, BudgetAsFractionOfTheScope) {
  policy.budget = *ParseDrainBudget("25%");
  scope[1] = Node("n2", "IDLE+DRAIN", "rocewatch: gid_drift mlx5_0/1");
  input.findings = {Critical("ip_missing_after_flap", "ens1f0np0")};
  EXPECT_EQ(Decide().action, RemediationAction::kRefuseBudget);  // 25% of 4 = 1, spent
  policy.budget = *ParseDrainBudget("50%");
  EXPECT_EQ(Decide().action, RemediationAction::kDrain);
}

TEST_F(RemediationPolicyTest, UnknownScopeRefusesRatherThanDrainBlind) {
  input.scope = nullptr;
  input.findings = {Critical("ip_missing_after_flap", "ens1f0np0")};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kRefuseBudget);
  EXPECT_FALSE(d.budget.known);
  EXPECT_THAT(d.evidence, HasSubstr("could not be listed"));
}

TEST_F(RemediationPolicyTest, RequeueNamesTheJobsOfTheCollapsedRailOnlyWhenAsked) {
  policy.requeue_collapsed = true;
  consumers.devices["mlx5_0"].consumers.push_back(Consumer(4101, "8812"));
  consumers.devices["mlx5_0"].consumers.push_back(Consumer(4102, "oops;rm"));
  input.findings = {Critical("traffic_collapsed", "mlx5_0/1")};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.action, RemediationAction::kDrain);
  EXPECT_EQ(d.requeue_jobs, std::vector<std::string>{"8812"});
  input.findings = {Critical("ip_missing_after_flap", "ens1f0np0")};
  EXPECT_TRUE(Decide().requeue_jobs.empty());
}

TEST_F(RemediationPolicyTest, ReasonIsPrintableAndBounded) {
  input.findings = {
      Critical("ip_missing_after_flap", std::string("ens\"1\n") + std::string(300, 'x'))};
  RemediationDecision d = Decide();
  EXPECT_EQ(d.slurm_reason.rfind("rocewatch: ip_missing_after_flap ens_1?x", 0), 0u);
  EXPECT_EQ(d.slurm_reason.size(), 120u);
}

}  // namespace
}  // namespace rocewatch
