#include "netdev_health/ip_loss_detector.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class IpLossDetectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    detector_.Reset("rnic0", true, {MakeIp("10.0.0.2/24"), MakeIp("fe80::1/64")}, clock_.Now());
  }
  void After(Duration d) { clock_.Advance(d); }
  void Carrier(bool up) { detector_.OnCarrier("rnic0", up, clock_.Now()); }
  void Removed(const std::string& ip) {
    detector_.OnAddressRemoved("rnic0", MakeIp(ip), clock_.Now());
  }
  void Added(const std::string& ip) { detector_.OnAddressAdded("rnic0", MakeIp(ip), clock_.Now()); }
  const IpLossDetector::NetdevIps& State() {
    detector_.Evaluate(clock_.Now());
    return *detector_.Find("rnic0");
  }

  FakeClock clock_;
  IpLossDetector detector_{{.transition_window = seconds(5), .grace = seconds(15)}};
};

TEST_F(IpLossDetectorTest, NetworkManagerStyleFlapLosesAndRestoresTheAddress) {
  Carrier(false);
  After(milliseconds(200));
  Removed("10.0.0.2/24");
  After(seconds(3));
  Carrier(true);
  After(seconds(2));
  Added("10.0.0.2/24");
  After(seconds(30));
  EXPECT_EQ(State().ip_lost_total, 1u);
  EXPECT_TRUE(State().missing.empty());
}

TEST_F(IpLossDetectorTest, IfupdownStyleFlapKeepsTheAddress) {
  Carrier(false);
  After(seconds(3));
  Carrier(true);
  After(seconds(30));
  EXPECT_EQ(State().ip_lost_total, 0u);
  EXPECT_TRUE(State().missing.empty());
}

TEST_F(IpLossDetectorTest, AddressThatNeverReturnsIsMissingAfterTheGrace) {
  Carrier(false);
  Removed("10.0.0.2/24");
  After(seconds(3));
  Carrier(true);
  After(seconds(14));
  EXPECT_TRUE(State().missing.empty()) << "still within the grace period";
  EXPECT_EQ(detector_.NextDeadline(), clock_.Now() + seconds(1));
  After(seconds(1));
  EXPECT_EQ(State().missing.size(), 1u);
  Added("10.0.0.2/24");
  EXPECT_TRUE(State().missing.empty());
}

TEST_F(IpLossDetectorTest, RemovalJustBeforeTheCarrierReportCounts) {
  Removed("10.0.0.2/24");  // the manager was faster than linkwatch
  After(milliseconds(800));
  EXPECT_EQ(State().ip_lost_total, 0u);
  Carrier(false);
  EXPECT_EQ(State().ip_lost_total, 1u);
  After(seconds(1));
  Carrier(true);
  After(seconds(16));
  EXPECT_EQ(State().missing.size(), 1u);
}

TEST_F(IpLossDetectorTest, RemovalShortlyAfterCarrierReturnCounts) {
  Carrier(false);
  After(seconds(1));
  Carrier(true);
  After(seconds(2));
  Removed("10.0.0.2/24");
  EXPECT_EQ(State().ip_lost_total, 1u);
}

TEST_F(IpLossDetectorTest, RemovalFarFromAnyFlapIsAnOperatorsChange) {
  After(seconds(60));
  Removed("10.0.0.2/24");
  After(seconds(60));
  Carrier(false);  // long after: not part of this flap
  After(seconds(1));
  Carrier(true);
  After(seconds(60));
  EXPECT_EQ(State().ip_lost_total, 0u);
  EXPECT_TRUE(State().missing.empty());
}

TEST_F(IpLossDetectorTest, LinkLocalAddressesAreIgnored) {
  Carrier(false);
  Removed("fe80::1/64");
  Carrier(true);
  After(seconds(60));
  EXPECT_EQ(State().ip_lost_total, 0u);
  EXPECT_TRUE(State().missing.empty());
}

TEST_F(IpLossDetectorTest, InferredFlapCountsRemovalsAtTheSameTime) {
  detector_.OnInferredFlap("rnic0", clock_.Now());
  Removed("10.0.0.2/24");
  EXPECT_EQ(State().ip_lost_total, 1u);
  After(seconds(16));
  EXPECT_EQ(State().missing.size(), 1u);
}

TEST_F(IpLossDetectorTest, FindingsNameTheAddressAndTheRemedy) {
  Carrier(false);
  Removed("10.0.0.2/24");
  Carrier(true);
  After(seconds(20));
  std::vector<Finding> findings;
  State();
  detector_.AppendFindings(clock_.Now(), findings);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].check, "ip_lost_during_flap");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  EXPECT_NE(findings[0].message.find("10.0.0.2/24"), std::string::npos);
  EXPECT_NE(findings[0].remedy.find("ignore-carrier"), std::string::npos);
  EXPECT_EQ(findings[1].check, "ip_missing_after_flap");
  EXPECT_EQ(findings[1].severity, Severity::kCritical);
}

TEST_F(IpLossDetectorTest, AChurnOfRemovalsStaysBoundedAndOnlyTheWindowBeforeTheDropCounts) {
  // 40 s of removals with the carrier up, 100 per second: 4,000 removed, 500 within the window.
  size_t most_kept = 0;
  for (int i = 0; i < 4000; ++i) {
    Added("10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250) + "/32");
    Removed("10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250) + "/32");
    most_kept = std::max(most_kept, State().recent_removals.size());
    After(milliseconds(10));
  }
  // Pruned when the map has doubled since the last pruning: never more than twice the window.
  EXPECT_LE(most_kept, 2u * 501u) << "pruned as it goes";
  Carrier(false);  // the last 5 s of removals belong to this flap
  EXPECT_EQ(State().ip_lost_total, 500u);
  ASSERT_TRUE(State().last_lost.has_value());
  EXPECT_EQ(State().last_lost->address, MakeIp("10.1.15.249/32"));
}

}  // namespace
}  // namespace rocewatch
