#include "diagnose/rail_down_checks.h"

#include <gtest/gtest.h>

#include "support/finding_names.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

// Two rails; eth0's carrier as given, eth1 up.
class RailDownChecksTest : public ::testing::Test {
 protected:
  RailDownChecksTest() {
    node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
    node.devices.push_back(RoceDevice("mlx5_1", "eth1", {"10.0.1.2"}));
    for (const char* name : {"eth0", "eth1"}) {
      netdevs[name].name = name;
      netdevs[name].carrier = true;
    }
    RailConsumer rank;
    rank.pid = 4242;
    rank.comm = "python3";
    rank.job = "81";
    for (const char* device : {"mlx5_0", "mlx5_1"})
      consumers.devices[device] = {ConsumerKnowledge::kPresent, {rank}};
  }

  NodeSnapshot node;
  std::map<std::string, NetdevState> netdevs;
  ConsumerObservation consumers;
};

TEST_F(RailDownChecksTest, ANetdevWithoutCarrierUnderAJobIsCritical) {
  netdevs["eth0"].carrier = false;
  std::vector<Finding> findings = CheckRailsDownUnderJob(node, netdevs, consumers);
  ASSERT_EQ(CheckNames(findings), std::vector<std::string>{"rail_down_under_job"});
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].subject, "mlx5_0/1");
  EXPECT_NE(findings[0].message.find("the link is down (netdev eth0 has no carrier) while a job "
                                     "holds the device (job 81)"),
            std::string::npos)
      << findings[0].message;
}

TEST_F(RailDownChecksTest, WithoutTheNetdevsStateThePortStateJudges) {
  netdevs.clear();
  node.devices[1].ports[0].state = "DOWN";
  node.devices[1].ports[0].phys_state = "Disabled";
  std::vector<Finding> findings = CheckRailsDownUnderJob(node, netdevs, consumers);
  ASSERT_EQ(CheckNames(findings), std::vector<std::string>{"rail_down_under_job"});
  EXPECT_EQ(findings[0].subject, "mlx5_1/1");
  EXPECT_NE(findings[0].message.find("port state DOWN, phys_state Disabled"), std::string::npos)
      << findings[0].message;
}

TEST_F(RailDownChecksTest, ARailNobodyIsKnownToHoldIsNoFindingHere) {
  netdevs["eth0"].carrier = false;
  netdevs["eth1"].carrier = false;
  consumers.devices["mlx5_0"] = {ConsumerKnowledge::kNone, {}};
  consumers.devices["mlx5_1"] = {ConsumerKnowledge::kUnknown, {}};
  EXPECT_TRUE(CheckRailsDownUnderJob(node, netdevs, consumers).empty());
}

TEST_F(RailDownChecksTest, LinksThatAreUpAreNoFinding) {
  EXPECT_TRUE(CheckRailsDownUnderJob(node, netdevs, consumers).empty());
}

}  // namespace
}  // namespace rocewatch
