#include "netdev_health/netlink_listener.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/fake_rtnetlink_source.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

NetdevHealthConfig TestConfig() {
  NetdevHealthConfig config;
  config.ip_loss.grace = seconds(10);
  config.policy.settle = seconds(2);
  return config;
}

// A namespace with one RNIC (rnic0, ifindex 4, 10.0.0.2/24, rule and policy route) and eth0.
class NetlinkListenerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    NetlinkDump& d = source_.dump();
    d.links = {MakeLink(2, "eth0", true, 1), MakeLink(4, "rnic0", true, 1)};
    d.addresses = {MakeAddress(2, "192.168.1.5/24"), MakeAddress(4, "10.0.0.2/24")};
    d.rules = {MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000))};
    d.routes = {MakeRouteMessage(MakeRoute("0.0.0.0/0", 4, 100))};
    listener_.set_on_changes([this](const auto& changes, const auto& narration) {
      for (const auto& c : changes) kinds_.push_back(c.kind);
      for (const auto& n : narration) {
        narration_.push_back(n.netdev + ": " + n.text);
        severities_.push_back(n.severity);
      }
    });
    ASSERT_TRUE(listener_.Start(loop_).ok());
  }
  void Step(Duration advance = Duration::zero()) {
    clock_.Advance(advance);
    loop_.RunOnce(Duration::zero());
  }
  void Push(NetlinkMessage m) {
    std::visit([&](auto& x) { x.at = clock_.Now(); }, m);
    source_.Push(std::move(m));
  }
  const IpLossDetector::NetdevIps& Ips() { return *listener_.health().ip_loss().Find("rnic0"); }
  const LinkFlapDetector::NetdevFlaps& Flaps() { return *listener_.health().flaps().Find("rnic0"); }

  FakeClock clock_;
  EventLoop loop_{clock_};
  FakeRtnetlinkSource source_;
  NetlinkListener listener_{source_, clock_, {"rnic0"}, TestConfig()};
  std::vector<NetdevChange::Kind> kinds_;
  std::vector<std::string> narration_;
  std::vector<Severity> severities_;  // of each narration line
};

TEST_F(NetlinkListenerTest, StartOpensDumpsAndReportsTheRnicOnly) {
  EXPECT_EQ(source_.opens(), 1);
  EXPECT_EQ(source_.dumps(), 1);
  EXPECT_EQ(kinds_, (std::vector<NetdevChange::Kind>{NetdevChange::Kind::kAppeared,
                                                     NetdevChange::Kind::kRouting}));
  EXPECT_EQ(narration_, std::vector<std::string>{"rnic0: watching (carrier up, 1 address(es))"});
  EXPECT_EQ(listener_.tracker().RnicStates().size(), 1u);
  EXPECT_EQ(listener_.resyncs(), 0u);
}

TEST_F(NetlinkListenerTest, NetworkManagerStyleFlapThroughTheLoop) {
  Push(MakeLink(4, "rnic0", false, 2));
  Step(milliseconds(100));
  Push(MakeAddress(4, "10.0.0.2/24", true));
  Step(seconds(2));
  Push(MakeLink(4, "rnic0", true, 3));
  Step(milliseconds(500));
  Push(MakeAddress(4, "10.0.0.2/24"));
  Step(seconds(20));
  EXPECT_EQ(Flaps().flaps_total, 1u);
  EXPECT_EQ(Ips().ip_lost_total, 1u);
  EXPECT_TRUE(Ips().missing.empty());
  EXPECT_EQ(narration_.back(), "rnic0: address 10.0.0.2/24 added");
  EXPECT_EQ(narration_[2], "rnic0: address 10.0.0.2/24 removed (lost during a flap)");
  // watching, carrier down, lost, carrier up (flap 1), added: the flap and the loss are warnings.
  EXPECT_EQ(severities_,
            (std::vector<Severity>{Severity::kInfo, Severity::kWarning, Severity::kWarning,
                                   Severity::kWarning, Severity::kInfo}))
      << ::testing::PrintToString(narration_);
}

TEST_F(NetlinkListenerTest, GraceDeadlineRunsAsALoopTimer) {
  Push(MakeLink(4, "rnic0", false, 2));
  Push(MakeAddress(4, "10.0.0.2/24", true));
  Step();
  Push(MakeLink(4, "rnic0", true, 3));
  Step();
  clock_.Advance(seconds(10));
  EXPECT_EQ(loop_.RunOnce(Duration::zero()).timers_fired, 1);
  EXPECT_EQ(Ips().missing.size(), 1u);
}

TEST_F(NetlinkListenerTest, OverrunResyncsFromADumpAndKeepsTheFinalState) {
  Push(MakeAddress(4, "10.0.0.7/24"));
  source_.PushOverrun();
  Push(MakeAddress(4, "10.0.0.8/24"));  // queued after the drop: the dump covers it
  // Meanwhile the namespace ended with 10.0.0.2 gone and 10.0.0.7, 10.0.0.9 present, and a flap
  // nobody saw but the kernel's counter.
  source_.dump().links[1] = MakeLink(4, "rnic0", true, 3);
  source_.dump().addresses = {MakeAddress(4, "10.0.0.7/24"), MakeAddress(4, "10.0.0.9/24")};
  Step();
  EXPECT_EQ(listener_.resyncs(), 1u);
  EXPECT_EQ(source_.dumps(), 2);
  EXPECT_EQ(listener_.tracker().Find("rnic0")->addresses,
            (std::vector<IpAddress>{MakeIp("10.0.0.7/24"), MakeIp("10.0.0.9/24")}));
  EXPECT_EQ(Flaps().flaps_total, 1u);
  EXPECT_EQ(Flaps().inferred_total, 1u);
  EXPECT_EQ(Ips().ip_lost_total, 1u) << "10.0.0.2 went in the flap the counter revealed";
}

TEST_F(NetlinkListenerTest, FailedResyncIsRetried) {
  source_.FailDumps(1);
  source_.PushOverrun();
  source_.dump().addresses.clear();
  Step();
  EXPECT_EQ(listener_.resyncs(), 0u);
  EXPECT_EQ(listener_.errors(), 1u);
  Step(seconds(1));
  EXPECT_EQ(listener_.resyncs(), 1u);
  EXPECT_TRUE(listener_.tracker().Find("rnic0")->addresses.empty());
}

TEST_F(NetlinkListenerTest, PolicyRuleDeletedIsDetectedAfterTheSettleTime) {
  Step(seconds(5));
  Push(MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000), true));
  Step();
  const auto* p = listener_.health().policy().Find("rnic0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->missing_rules.size(), 1u);
}

TEST_F(NetlinkListenerTest, RnicSetChangeAndStop) {
  listener_.SetRnicNetdevs({"rnic0", "eth0"});
  EXPECT_EQ(kinds_.back(), NetdevChange::Kind::kAppeared);
  EXPECT_EQ(listener_.tracker().RnicStates().size(), 2u);
  listener_.Stop();
  EXPECT_EQ(source_.fd(), -1);
}

}  // namespace
}  // namespace rocewatch
