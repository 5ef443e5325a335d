#include "netlink/netdev_dump.h"

#include <gtest/gtest.h>

#include "support/fake_rtnetlink_source.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

TEST(DumpNetdevs, NamedNetdevsTheirRulesAndRoutes) {
  FakeRtnetlinkSource source;
  source.dump().links = {MakeLink(2, "eth0", true), MakeLink(4, "rnic0", false, 9)};
  source.dump().addresses = {MakeAddress(2, "192.168.1.5/24"), MakeAddress(4, "10.0.0.2/24")};
  source.dump().rules = {MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000)),
                         MakeRuleMessage(MakeRule("192.168.1.5/32", 200, 2000))};
  source.dump().routes = {MakeRouteMessage(MakeRoute("0.0.0.0/0", 4, 100)),
                          MakeRouteMessage(MakeRoute("0.0.0.0/0", 2, 254))};
  auto report = DumpNetdevs(source, {"rnic0", "rnic9"});
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  ASSERT_EQ(report->netdevs.size(), 1u);
  EXPECT_EQ(report->netdevs[0].name, "rnic0");
  EXPECT_FALSE(report->netdevs[0].carrier);
  EXPECT_EQ(report->netdevs[0].carrier_changes, 9u);
  EXPECT_EQ(report->absent, std::vector<std::string>{"rnic9"});
  ASSERT_EQ(report->rules.size(), 1u);
  EXPECT_EQ(report->rules[0].table, 100u);
  ASSERT_EQ(report->routes.size(), 1u);
  EXPECT_EQ(source.opens(), 1);
}

TEST(DumpNetdevs, RulesThroughTheNetdevsAreTiedToThemToo) {
  FakeRtnetlinkSource source;
  source.dump().links = {MakeLink(4, "rnic0", true)};
  PolicyRule through;  // from all oif rnic0 lookup 101
  through.oifname = "rnic0";
  through.table = 101;
  PolicyRule elsewhere = through;
  elsewhere.oifname = "eth0";
  elsewhere.table = 102;
  source.dump().rules = {MakeRuleMessage(through), MakeRuleMessage(elsewhere)};
  auto report = DumpNetdevs(source, {"rnic0"});
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->rules.size(), 1u);
  EXPECT_EQ(report->rules[0].table, 101u);
}

TEST(DumpNetdevs, DumpFailureIsAnError) {
  FakeRtnetlinkSource source;
  source.FailDumps(1);
  EXPECT_FALSE(DumpNetdevs(source, {"rnic0"}).ok());
}

}  // namespace
}  // namespace rocewatch
