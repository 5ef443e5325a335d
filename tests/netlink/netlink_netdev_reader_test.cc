#include "netlink/netlink_netdev_reader.h"

#include <gtest/gtest.h>

#include "support/fake_file_system.h"
#include "support/fake_rtnetlink_source.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

class NetlinkNetdevReaderTest : public ::testing::Test {
 protected:
  NetlinkNetdevReaderTest() {
    source_.dump().links = {MakeLink(4, "rnic0", true, 3)};
    source_.dump().addresses = {MakeAddress(4, "fd00::2/64"), MakeAddress(4, "10.0.0.2/24")};
    source_.dump().rules = {MakeRuleMessage(MakeRule("10.0.0.2/32", 100, 1000))};
    // rnic1 is not in this namespace: a host root from elsewhere.
    fs_.AddFile("/host/sys/class/net/rnic1/ifindex", "7\n");
    fs_.AddFile("/host/sys/class/net/rnic1/operstate", "down\n");
    fs_.AddFile("/host/sys/class/net/rnic1/carrier", "0\n");
    fs_.AddFile("/host/sys/class/net/rnic1/carrier_changes", "12\n");
  }
  FakeRtnetlinkSource source_;
  FakeFileSystem fs_;
  NetlinkNetdevReader reader_{source_, fs_, HostPaths::ForRoots("/host")};
};

TEST_F(NetlinkNetdevReaderTest, NetdevsOfTheNamespaceComeFromOneDump) {
  auto read = reader_.Read({"rnic0", "rnic1"});
  const NetdevObservation& rnic0 = read.at("rnic0");
  EXPECT_TRUE(rnic0.in_namespace);
  EXPECT_TRUE(rnic0.carrier_known);
  EXPECT_TRUE(rnic0.state.carrier);
  EXPECT_EQ(rnic0.state.ifindex, 4);
  EXPECT_EQ(rnic0.state.carrier_changes, 3u);
  ASSERT_EQ(rnic0.state.addresses.size(), 2u);
  EXPECT_EQ(rnic0.state.addresses[0].ToString(), "10.0.0.2/24");  // sorted
  ASSERT_TRUE(reader_.rules().has_value());
  ASSERT_EQ(reader_.rules()->size(), 1u);
  EXPECT_EQ((*reader_.rules())[0].table, 100u);
  EXPECT_EQ(source_.opens(), 1);
  EXPECT_EQ(source_.dumps(), 1);
}

TEST_F(NetlinkNetdevReaderTest, NetdevsElsewhereComeFromSysfsWithoutAddresses) {
  const NetdevObservation rnic1 = reader_.Read({"rnic1"}).at("rnic1");
  EXPECT_FALSE(rnic1.in_namespace);
  EXPECT_TRUE(rnic1.carrier_known);
  EXPECT_FALSE(rnic1.state.carrier);
  EXPECT_EQ(rnic1.state.ifindex, 7);
  EXPECT_EQ(rnic1.state.operstate, "down");
  EXPECT_EQ(rnic1.state.carrier_changes, 12u);
  EXPECT_TRUE(rnic1.state.addresses.empty());
}

TEST_F(NetlinkNetdevReaderTest, AnUnreadableNamespaceFallsBackToSysfsAndKnowsNoRules) {
  source_.FailDumps(1);
  auto read = reader_.Read({"rnic0", "rnic1"});
  EXPECT_FALSE(read.at("rnic0").in_namespace);
  EXPECT_FALSE(read.at("rnic0").carrier_known);  // no sysfs entry for it either
  EXPECT_TRUE(read.at("rnic1").carrier_known);
  EXPECT_FALSE(reader_.rules().has_value());
  EXPECT_FALSE(reader_.dump_status().ok());
}

}  // namespace
}  // namespace rocewatch
