#include "netlink/netdev_tracker.h"

#include <gtest/gtest.h>

#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

using Kind = NetdevChange::Kind;

class NetdevTrackerTest : public ::testing::Test {
 protected:
  std::vector<NetdevChange> Apply(const NetlinkMessage& m) {
    std::vector<NetdevChange> out;
    tracker_.Apply(m, out);
    return out;
  }
  std::vector<Kind> Kinds(const std::vector<NetdevChange>& changes) {
    std::vector<Kind> out;
    for (const auto& c : changes) out.push_back(c.kind);
    return out;
  }
  NetdevTracker tracker_{{"rnic0", "rnic1"}};
};

TEST_F(NetdevTrackerTest, RnicLinkAppearsWithItsStateAndOthersAreSilent) {
  auto changes = Apply(MakeLink(4, "rnic0", true, 3));
  ASSERT_EQ(Kinds(changes), std::vector<Kind>{Kind::kAppeared});
  EXPECT_EQ(changes[0].netdev, "rnic0");
  EXPECT_TRUE(changes[0].state.carrier);
  EXPECT_EQ(changes[0].state.carrier_changes, 3u);
  EXPECT_TRUE(Apply(MakeLink(2, "eth0", true)).empty());
  EXPECT_TRUE(Apply(MakeAddress(2, "192.168.1.5/24")).empty());
  EXPECT_EQ(tracker_.RnicStates().size(), 1u);
  EXPECT_EQ(tracker_.link_count(), 2u);
}

TEST_F(NetdevTrackerTest, CarrierChangeAndUnchangedRepeat) {
  Apply(MakeLink(4, "rnic0", true));
  auto down = Apply(MakeLink(4, "rnic0", false));
  ASSERT_EQ(Kinds(down), std::vector<Kind>{Kind::kLink});
  EXPECT_FALSE(down[0].state.carrier);
  EXPECT_EQ(down[0].state.operstate, "LOWERLAYERDOWN");
  EXPECT_TRUE(Apply(MakeLink(4, "rnic0", false)).empty());
}

TEST_F(NetdevTrackerTest, AddressesAreKeptSortedAndDuplicatesIgnored) {
  Apply(MakeLink(4, "rnic0", true));
  EXPECT_EQ(Kinds(Apply(MakeAddress(4, "10.0.0.2/24"))), std::vector<Kind>{Kind::kAddressAdded});
  Apply(MakeAddress(4, "10.0.0.1/24"));
  EXPECT_TRUE(Apply(MakeAddress(4, "10.0.0.2/24")).empty());  // e.g. DAD finished
  EXPECT_EQ(tracker_.Find("rnic0")->addresses,
            (std::vector<IpAddress>{MakeIp("10.0.0.1/24"), MakeIp("10.0.0.2/24")}));
  auto removed = Apply(MakeAddress(4, "10.0.0.2/24", true));
  ASSERT_EQ(Kinds(removed), std::vector<Kind>{Kind::kAddressRemoved});
  EXPECT_EQ(removed[0].address, MakeIp("10.0.0.2/24"));
  EXPECT_TRUE(Apply(MakeAddress(4, "10.0.0.2/24", true)).empty());
}

TEST_F(NetdevTrackerTest, OnlyAppearanceCarriesTheAddressListOtherChangesTheirOwnFields) {
  Apply(MakeLink(4, "rnic0", true, 1));
  for (int i = 1; i <= 100; ++i) Apply(MakeAddress(4, "10.0.1." + std::to_string(i) + "/32"));
  auto added = Apply(MakeAddress(4, "10.0.2.1/32"));
  ASSERT_EQ(Kinds(added), std::vector<Kind>{Kind::kAddressAdded});
  EXPECT_TRUE(added[0].state.addresses.empty());
  EXPECT_TRUE(added[0].state.carrier);
  auto link = Apply(MakeLink(4, "rnic0", false, 2));
  ASSERT_EQ(Kinds(link), std::vector<Kind>{Kind::kLink});
  EXPECT_TRUE(link[0].state.addresses.empty());
  EXPECT_EQ(link[0].state.carrier_changes, 2u);
  EXPECT_EQ(tracker_.Find("rnic0")->addresses.size(), 101u);
  auto in = Apply(MakeLink(4, "rnic1", false, 2));  // renamed: appears with every address
  ASSERT_EQ(Kinds(in), (std::vector<Kind>{Kind::kVanished, Kind::kAppeared}));
  EXPECT_EQ(in[1].state.addresses.size(), 101u);
}

TEST_F(NetdevTrackerTest, RenameFollowsTheIfindex) {
  Apply(MakeLink(4, "eth5", true));
  Apply(MakeAddress(4, "10.0.0.2/24"));
  auto in = Apply(MakeLink(4, "rnic0", true));  // udev renames eth5 -> rnic0
  ASSERT_EQ(Kinds(in), std::vector<Kind>{Kind::kAppeared});
  EXPECT_EQ(in[0].state.addresses.size(), 1u);
  auto out = Apply(MakeLink(4, "old_rnic0", true));
  ASSERT_EQ(Kinds(out), std::vector<Kind>{Kind::kVanished});
  EXPECT_EQ(out[0].netdev, "rnic0");
  EXPECT_FALSE(tracker_.Find("rnic0"));
  EXPECT_TRUE(tracker_.Find("old_rnic0"));
}

TEST_F(NetdevTrackerTest, DeletedLinkVanishesWithItsRoutes) {
  Apply(MakeLink(4, "rnic0", true));
  Apply(MakeRouteMessage(MakeRoute("0.0.0.0/0", 4, 100)));
  EXPECT_EQ(tracker_.RoutesOf("rnic0").size(), 1u);
  EXPECT_EQ(Kinds(Apply(MakeLinkRemoved(4, "rnic0"))), std::vector<Kind>{Kind::kVanished});
  EXPECT_TRUE(tracker_.RoutesOf("rnic0").empty());
  EXPECT_TRUE(tracker_.RnicStates().empty());
}

TEST_F(NetdevTrackerTest, KeepsRulesAndOnlyRnicRoutesOutsideTheLocalTable) {
  Apply(MakeLink(2, "eth0", true));
  Apply(MakeLink(4, "rnic0", true));
  EXPECT_EQ(Kinds(Apply(MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000)))),
            std::vector<Kind>{Kind::kRouting});
  EXPECT_TRUE(Apply(MakeRouteMessage(MakeRoute("0.0.0.0/0", 2, 254))).empty());
  EXPECT_TRUE(Apply(MakeRouteMessage(MakeRoute("10.0.0.2/32", 4, 255))).empty());
  EXPECT_EQ(Kinds(Apply(MakeRouteMessage(MakeRoute("0.0.0.0/0", 4, 100)))),
            std::vector<Kind>{Kind::kRouting});
  EXPECT_EQ(tracker_.rules().size(), 1u);
  EXPECT_EQ(tracker_.RoutesOf("rnic0").size(), 1u);
  EXPECT_EQ(Kinds(Apply(MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000), true))),
            std::vector<Kind>{Kind::kRouting});
  EXPECT_TRUE(tracker_.rules().empty());
}

TEST_F(NetdevTrackerTest, RnicSetChangesMakeNetdevsAppearAndVanish) {
  Apply(MakeLink(4, "rnic0", true));
  Apply(MakeLink(5, "bond0", true));
  std::vector<NetdevChange> out;
  tracker_.SetRnicNetdevs({"bond0"}, MonoTime{}, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].netdev, "bond0");
  EXPECT_EQ(out[0].kind, Kind::kAppeared);
  EXPECT_EQ(out[1].netdev, "rnic0");
  EXPECT_EQ(out[1].kind, Kind::kVanished);
}

TEST_F(NetdevTrackerTest, ResyncReportsTheDifferenceLinkFirstThenAddresses) {
  Apply(MakeLink(4, "rnic0", true, 2));
  Apply(MakeAddress(4, "10.0.0.2/24"));
  Apply(MakeLink(6, "rnic1", true));
  NetlinkDump dump;
  dump.at = MonoTime{} + std::chrono::seconds(9);
  dump.links = {MakeLink(4, "rnic0", true, 4)};  // flapped meanwhile; rnic1 is gone
  dump.addresses = {MakeAddress(4, "10.0.0.3/24")};
  std::vector<NetdevChange> out;
  tracker_.Resync(dump, out);
  ASSERT_EQ(Kinds(out), (std::vector<Kind>{Kind::kVanished, Kind::kLink, Kind::kAddressRemoved,
                                           Kind::kAddressAdded}));
  EXPECT_EQ(out[0].netdev, "rnic1");
  EXPECT_EQ(out[1].state.carrier_changes, 4u);
  EXPECT_TRUE(out[1].state.addresses.empty()) << "only kAppeared carries the addresses";
  EXPECT_EQ(out[2].address, MakeIp("10.0.0.2/24"));
  EXPECT_EQ(out[3].address, MakeIp("10.0.0.3/24"));
  for (const auto& c : out) EXPECT_EQ(c.at, dump.at);
  EXPECT_EQ(tracker_.Find("rnic0")->addresses, std::vector<IpAddress>{MakeIp("10.0.0.3/24")});
}

TEST_F(NetdevTrackerTest, ResyncOfAnEqualStateReportsNothing) {
  Apply(MakeLink(4, "rnic0", true, 2));
  Apply(MakeAddress(4, "10.0.0.2/24"));
  NetlinkDump dump;
  dump.links = {MakeLink(4, "rnic0", true, 2)};
  dump.addresses = {MakeAddress(4, "10.0.0.2/24")};
  std::vector<NetdevChange> out;
  tracker_.Resync(dump, out);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace rocewatch
