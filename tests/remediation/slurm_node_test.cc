#include "slurm_check/slurm_node.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(SlurmNodeTest, ParsesScontrolOnelinerWithReasonToTheEnd) {
  // As Slurm 22.05 prints it (checked against a real slurmctld).
  StatusOr<SlurmNode> node = ParseScontrolNode(
      "NodeName=n2 CoresPerSocket=1  CPUAlloc=0 State=IDLE+DRAIN ThreadsPerCore=1 "
      "Partitions=gpu,debug  BootTime=None ExtSensorsTemp=n/s "
      "Reason=rocewatch: gid_drift mlx5_0/1 [root@2026-12-02T04:24:24]\n");
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  EXPECT_EQ(node->name, "n2");
  EXPECT_EQ(node->state, "IDLE+DRAIN");
  EXPECT_EQ(node->reason, "rocewatch: gid_drift mlx5_0/1");
  EXPECT_EQ(node->partitions, (std::vector<std::string>{"gpu", "debug"}));
  EXPECT_TRUE(node->Drained());
  EXPECT_TRUE(node->DrainedByRocewatch());
}

TEST(SlurmNodeTest, NodeWithoutReasonOrDrainIsNotRocewatchs) {
  StatusOr<SlurmNode> idle = ParseScontrolNode("NodeName=n1 State=IDLE Partitions=gpu");
  ASSERT_TRUE(idle.ok());
  EXPECT_FALSE(idle->Drained());
  EXPECT_EQ(idle->reason, "");
  // A reason left over on a resumed (down) node is no drain.
  StatusOr<SlurmNode> down =
      ParseScontrolNode("NodeName=n3 State=DOWN+NOT_RESPONDING Reason=rocewatch: x [root@t]");
  ASSERT_TRUE(down.ok());
  EXPECT_FALSE(down->DrainedByRocewatch());
}

TEST(SlurmNodeTest, ScontrolGarbageIsAnError) {
  EXPECT_FALSE(ParseScontrolNode("").ok());
  EXPECT_FALSE(ParseScontrolNode("Node n1 not found").ok());
  EXPECT_FALSE(ParseScontrolNode("NodeName=n1 Arch=x86_64").ok());
}

TEST(SlurmNodeTest, ParsesSinfoOncePerNodeAcrossPartitions) {
  StatusOr<std::vector<SlurmNode>> nodes = ParseSinfoNodes(
      "n1|idle|gpu*|none\n"
      "n2|drained|gpu*|rocewatch: gid_drift mlx5_0/1\n"
      "n2|drained|debug|rocewatch: gid_drift mlx5_0/1\n"
      "n3|drained*|gpu*|admin: a|b|c\n");
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 3u);
  EXPECT_EQ((*nodes)[0].reason, "");
  EXPECT_FALSE((*nodes)[0].Drained());
  EXPECT_EQ((*nodes)[1].partitions, (std::vector<std::string>{"gpu", "debug"}));
  EXPECT_TRUE((*nodes)[1].DrainedByRocewatch());
  EXPECT_EQ((*nodes)[2].reason, "admin: a|b|c");
  EXPECT_EQ((*nodes)[2].state, "DRAINED*");
  EXPECT_FALSE((*nodes)[2].DrainedByRocewatch());
}

TEST(SlurmNodeTest, SinfoLineWithTooFewFieldsIsAnError) {
  StatusOr<std::vector<SlurmNode>> nodes = ParseSinfoNodes("n1|idle\n");
  ASSERT_FALSE(nodes.ok());
  EXPECT_NE(nodes.status().message().find("4 fields"), std::string::npos);
  EXPECT_TRUE(ParseSinfoNodes("").ok());
}

}  // namespace
}  // namespace rocewatch
