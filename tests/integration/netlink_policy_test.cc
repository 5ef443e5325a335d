// Policy routing of an RNIC address (ip rule from <ip> lookup 100, a route in table 100) deleted
// while the address stays: detected.
#include "daemon/host_env.h"
#include "netlink/netdev_dump.h"
#include "netlink/netlink_netdev_reader.h"
#include "netlink_netns_fixture.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class NetlinkPolicyTest : public NetlinkNetnsTest {
 protected:
  void SetUp() override {
    NetlinkNetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    Ip("rule add from 10.77.0.1 lookup 100 priority 1000");
    Ip(std::string("route add default dev ") + kRnic + " table 100");
    StartListener();
    ASSERT_TRUE(PumpUntil([&] { return PolicyRoutes() == 1; }));
  }
  int PolicyRoutes() const {
    int n = 0;
    for (const Route& r : listener_->tracker().RoutesOf(kRnic)) n += r.table == 100;
    return n;
  }
  const PolicyRoutingDetector::NetdevPolicy* Policy() const {
    return listener_->health().policy().Find(kRnic);
  }
};

TEST_F(NetlinkPolicyTest, RuleDeletedWhileTheAddressStaysIsDetected) {
  PumpFor(std::chrono::milliseconds(700));  // settled
  ASSERT_NE(Policy(), nullptr);
  EXPECT_TRUE(Policy()->missing_rules.empty());
  Ip("rule del from 10.77.0.1 lookup 100 priority 1000");
  ASSERT_TRUE(PumpUntil([&] { return Policy()->missing_rules.size() == 1; }));
  EXPECT_EQ(Policy()->missing_rules.begin()->first.ToString(),
            "from 10.77.0.1/32 lookup 100 prio 1000");
  Ip("rule add from 10.77.0.1 lookup 100 priority 1000");
  EXPECT_TRUE(PumpUntil([&] { return Policy()->missing_rules.empty(); }));
}

TEST_F(NetlinkPolicyTest, PolicyRouteDeletedIsDetected) {
  PumpFor(std::chrono::milliseconds(700));
  Ip(std::string("route del default dev ") + kRnic + " table 100");
  ASSERT_TRUE(PumpUntil([&] { return Policy()->missing_routes.size() == 1; }));
}

TEST_F(NetlinkPolicyTest, AddressAndRuleGoneTogetherIsNotARoutingFinding) {
  PumpFor(std::chrono::milliseconds(700));
  Ip(std::string("addr del ") + kAddress + " dev " + kRnic);
  Ip("rule del from 10.77.0.1 lookup 100 priority 1000");
  PumpFor(seconds(1));
  EXPECT_TRUE(Policy()->missing_rules.empty());
}

// The daemon's order: the listener dumps before the inventory names the RNICs. The routes that
// were there before it started are the baseline all the same: a flush of their table is seen.
TEST_F(NetlinkPolicyTest, RoutesPresentBeforeTheRnicIsNamedAreTheBaseline) {
  listener_->Stop();
  listener_.reset();
  source_.reset();
  StartListener(4 << 20, {});
  EXPECT_EQ(PolicyRoutes(), 0);  // not an RNIC yet: its routes are not kept
  listener_->SetRnicNetdevs({kRnic});
  ASSERT_TRUE(PumpUntil([&] { return PolicyRoutes() == 1; }));
  PumpFor(std::chrono::milliseconds(700));  // settled
  ASSERT_NE(Policy(), nullptr);
  EXPECT_TRUE(Policy()->missing_routes.empty());
  Ip("route flush table 100");
  ASSERT_TRUE(PumpUntil([&] { return Policy()->missing_routes.size() == 1; }));
  EXPECT_EQ(listener_->resyncs(), 0u);  // the dump for a new RNIC is no overrun
  Ip(std::string("route add default dev ") + kRnic + " table 100");
  EXPECT_TRUE(PumpUntil([&] { return Policy()->missing_routes.empty(); }));
}

// diagnose and collect: the real host's rtnetlink source, one dump, the reader they use.
TEST_F(NetlinkPolicyTest, OneShotDumpForDiagnoseSeesTheNetdevAndItsPolicyRouting) {
  RealHostEnv host;
  StatusOr<NetdevDumpReport> report = Status::Internal("not run");
  std::map<std::string, NetdevObservation> read;
  std::optional<std::vector<PolicyRule>> rules;
  ASSERT_TRUE(ns_->RunInside([&] {
                   std::unique_ptr<RtnetlinkSource> source =
                       host.env().rtnetlink(kDefaultNetlinkReceiveBufferBytes);
                   report = DumpNetdevs(*source, {kRnic, "absent0"});
                   NetlinkNetdevReader reader(*source, *host.env().files, HostPaths{});
                   read = reader.Read({kRnic, "absent0"});
                   rules = reader.rules();
                 })
                  .ok());
  EXPECT_TRUE(read[kRnic].in_namespace);
  EXPECT_TRUE(read[kRnic].state.carrier);
  EXPECT_FALSE(read["absent0"].in_namespace);
  ASSERT_TRUE(rules.has_value());
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ((*rules)[0].ToString(), "from 10.77.0.1/32 lookup 100 prio 1000");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->netdevs.size(), 1u);
  EXPECT_TRUE(report->netdevs[0].carrier);
  EXPECT_TRUE(report->netdevs[0].admin_up);
  EXPECT_EQ(report->netdevs[0].operstate, "UP");
  EXPECT_EQ(report->absent, std::vector<std::string>{"absent0"});
  ASSERT_EQ(report->rules.size(), 1u);
  EXPECT_EQ(report->rules[0].ToString(), "from 10.77.0.1/32 lookup 100 prio 1000");
  bool policy_route = false;
  for (const Route& r : report->routes) policy_route |= r.table == 100;
  EXPECT_TRUE(policy_route);
}

}  // namespace
}  // namespace rocewatch
