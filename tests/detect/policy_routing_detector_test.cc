#include "netdev_health/policy_routing_detector.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/fake_clock.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class PolicyRoutingDetectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NetdevState& n = view_.netdevs["rnic0"];
    n.name = "rnic0";
    n.ifindex = 4;
    n.carrier = true;
    n.addresses = {MakeIp("10.0.0.2/24")};
    view_.rules = {MakeRule("10.0.0.2/32", 100, 1000), MakeRule("192.168.0.0/16", 200, 2000)};
    view_.routes["rnic0"] = {MakeRoute("0.0.0.0/0", 4, 100), MakeRoute("10.0.0.0/24", 4, 254)};
  }
  // The first evaluation is the baseline: addresses and carrier are "present since" then.
  void Settled() {
    At(seconds(0));
    At(seconds(60));
  }
  const PolicyRoutingDetector::NetdevPolicy& At(Duration after) {
    clock_.Advance(after);
    detector_.Evaluate(view_, clock_.Now());
    return *detector_.Find("rnic0");
  }
  FakeClock clock_;
  RoutingView view_;
  PolicyRoutingDetector detector_{{.settle = seconds(5)}};
};

TEST(RuleCoversAddress, PrefixMatchesOfBothFamilies) {
  EXPECT_TRUE(RuleCoversAddress(MakeRule("10.0.0.2/32", 1, 1), MakeIp("10.0.0.2/24")));
  EXPECT_TRUE(RuleCoversAddress(MakeRule("10.0.0.0/24", 1, 1), MakeIp("10.0.0.77/24")));
  EXPECT_FALSE(RuleCoversAddress(MakeRule("10.0.1.0/24", 1, 1), MakeIp("10.0.0.77/24")));
  EXPECT_TRUE(RuleCoversAddress(MakeRule("fd00::/64", 1, 1), MakeIp("fd00::5/64")));
  EXPECT_FALSE(RuleCoversAddress(MakeRule("fd00::/64", 1, 1), MakeIp("10.0.0.2/24")));
  PolicyRule any = MakeRule("10.0.0.0/8", 1, 1);
  any.src.clear();
  any.src_len = 0;
  EXPECT_FALSE(RuleCoversAddress(any, MakeIp("10.0.0.2/24"))) << "'from all' is nobody's own";
}

TEST_F(PolicyRoutingDetectorTest, IntactRoutingIsQuiet) {
  At(seconds(0));
  EXPECT_TRUE(At(seconds(60)).missing_rules.empty());
  EXPECT_EQ(At(seconds(0)).expected_rules.begin()->second.size(), 1u);
  EXPECT_EQ(At(seconds(0)).expected_routes.size(), 1u) << "only the route of the policy table";
}

// A storm of addresses that no rule covers (25,000 on one netdev in the daemon's storm test) leaves
// nothing expected and no deadline, and each address keeps the time it first appeared.
TEST_F(PolicyRoutingDetectorTest, AddressesNoRuleCoversExpectNothingAndKeepTheirFirstSighting) {
  for (int i = 1; i <= 200; ++i)
    view_.netdevs["rnic0"].addresses.push_back(MakeIp("10.80.0." + std::to_string(i) + "/32"));
  std::sort(view_.netdevs["rnic0"].addresses.begin(), view_.netdevs["rnic0"].addresses.end());
  const MonoTime first = clock_.Now() + seconds(1);
  const auto& p = At(seconds(1));
  EXPECT_EQ(p.present_since.size(), 201u);
  ASSERT_EQ(p.expected_rules.size(), 1u) << "only 10.0.0.2, which the /32 rule covers";
  EXPECT_EQ(p.expected_rules.begin()->first, MakeIp("10.0.0.2/24"));

  auto& addresses = view_.netdevs["rnic0"].addresses;
  std::erase_if(addresses, [](const IpAddress& a) { return a.address.ends_with("0"); });
  addresses.push_back(MakeIp("10.80.1.1/32"));
  std::sort(addresses.begin(), addresses.end());
  const MonoTime second = clock_.Now() + seconds(2);
  const auto& q = At(seconds(2));
  EXPECT_EQ(q.present_since.size(), addresses.size());
  EXPECT_EQ(q.present_since.at(MakeIp("10.80.0.1/32")), first) << "kept, not renewed";
  EXPECT_EQ(q.present_since.at(MakeIp("10.80.1.1/32")), second) << "new";
  EXPECT_EQ(q.present_since.count(MakeIp("10.80.0.10/32")), 0u) << "gone";

  view_.rules.clear();
  detector_ = PolicyRoutingDetector({.settle = seconds(5)});
  At(seconds(1));
  EXPECT_EQ(detector_.NextDeadline(clock_.Now()), std::nullopt) << "nothing can go missing";
}

TEST_F(PolicyRoutingDetectorTest, RuleDeletedWhileTheAddressStaysIsMissing) {
  Settled();
  view_.rules.erase(MakeRule("10.0.0.2/32", 100, 1000));
  const auto& p = At(seconds(1));
  ASSERT_EQ(p.missing_rules.size(), 1u);
  EXPECT_EQ(p.missing_rules.begin()->second, MakeIp("10.0.0.2/24"));
  std::vector<Finding> findings;
  detector_.AppendFindings(findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "policy_routing_missing");
  EXPECT_NE(findings[0].message.find("from 10.0.0.2/32 lookup 100"), std::string::npos);
  view_.rules.insert(MakeRule("10.0.0.2/32", 100, 1000));
  EXPECT_TRUE(At(seconds(1)).missing_rules.empty());
}

TEST_F(PolicyRoutingDetectorTest, PolicyTableRouteDeletedIsMissing) {
  Settled();
  view_.routes["rnic0"] = {MakeRoute("10.0.0.0/24", 4, 254)};
  EXPECT_EQ(At(seconds(1)).missing_routes.size(), 1u);
}

TEST_F(PolicyRoutingDetectorTest, ReaddedAddressGetsTheSettleTimeForItsRules) {
  Settled();
  view_.netdevs["rnic0"].addresses.clear();  // NetworkManager deactivates: address and rule go
  view_.rules.erase(MakeRule("10.0.0.2/32", 100, 1000));
  EXPECT_TRUE(At(seconds(1)).missing_rules.empty()) << "no address, nothing to route";
  view_.netdevs["rnic0"].addresses = {MakeIp("10.0.0.2/24")};
  EXPECT_TRUE(At(seconds(1)).missing_rules.empty()) << "the manager adds rules just after";
  EXPECT_EQ(detector_.NextDeadline(clock_.Now()), clock_.Now() + seconds(5));
  EXPECT_TRUE(At(seconds(4)).missing_rules.empty());
  EXPECT_EQ(At(seconds(1)).missing_rules.size(), 1u) << "it did not";
}

TEST_F(PolicyRoutingDetectorTest, NothingIsMissingWhileTheCarrierIsDown) {
  Settled();
  view_.netdevs["rnic0"].carrier = false;
  view_.routes["rnic0"].clear();
  EXPECT_TRUE(At(seconds(10)).missing_routes.empty());
  view_.netdevs["rnic0"].carrier = true;
  EXPECT_TRUE(At(seconds(1)).missing_routes.empty());
  EXPECT_EQ(At(seconds(5)).missing_routes.size(), 1u);
}

TEST_F(PolicyRoutingDetectorTest, VanishedNetdevIsForgotten) {
  At(seconds(60));
  view_.netdevs.clear();
  detector_.Evaluate(view_, clock_.Now());
  EXPECT_EQ(detector_.Find("rnic0"), nullptr);
}

}  // namespace
}  // namespace rocewatch
