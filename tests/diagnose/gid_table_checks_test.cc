#include "diagnose/gid_table_checks.h"

#include <gtest/gtest.h>

#include "support/finding_names.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

NetdevState WithAddress(const std::string& name, const std::string& ip) {
  NetdevState state;
  state.name = name;
  state.carrier = true;
  state.addresses.push_back({AddressFamily::kIpv4, ip, 24, false});
  return state;
}

TEST(GidTableChecks, AHealthyRailHasNoFindings) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  auto findings = CheckPortsAndGidTables(node, {{"eth0", WithAddress("eth0", "10.0.0.2")}});
  EXPECT_TRUE(findings.empty());
}

TEST(GidTableChecks, AnUnreadableSlotIsNeitherAMissingGidNorAHole) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2", "10.0.0.3"}));
  Port& port = node.devices[0].ports[0];
  // gids/3 (10.0.0.2's RoCE v2 GID) failed its read: unknown, not empty.
  std::erase_if(port.gids, [](const GidEntry& g) { return g.index == 3; });
  port.unreadable_gid_slots = {3};
  auto findings = CheckPortsAndGidTables(node, {{"eth0", WithAddress("eth0", "10.0.0.2")}});
  EXPECT_TRUE(findings.empty()) << findings[0].message;
  EXPECT_TRUE(HolesBelowNonDefaultGids(port).empty());
  port.unreadable_gid_slots.clear();  // the same table read whole: both findings are facts
  findings = CheckPortsAndGidTables(node, {{"eth0", WithAddress("eth0", "10.0.0.2")}});
  EXPECT_EQ(CheckNames(findings),
            (std::vector<std::string>{"ipv4_without_roce_v2_gid", "gid_table_hole"}));
}

TEST(GidTableChecks, APortThatIsNotActiveIsAWarning) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  node.devices[0].ports[0].state = "DOWN";
  node.devices[0].ports[0].phys_state = "Disabled";
  auto findings = CheckPortsAndGidTables(node, {});
  ASSERT_EQ(CheckNames(findings), std::vector<std::string>{"port_not_active"});
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  EXPECT_EQ(findings[0].subject, "mlx5_0/1");
  EXPECT_NE(findings[0].message.find("DOWN (phys_state Disabled)"), std::string::npos);
}

TEST(GidTableChecks, AnIpv4AddressWithoutRoceV2GidIsCritical) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {}));  // only default GIDs
  auto findings = CheckPortsAndGidTables(node, {{"eth0", WithAddress("eth0", "10.0.0.2")}});
  ASSERT_EQ(CheckNames(findings), std::vector<std::string>{"ipv4_without_roce_v2_gid"});
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("0000:0000:0000:0000:0000:ffff:0a00:0002"), std::string::npos);
}

TEST(GidTableChecks, AnIpv4AddressWithOnlyARoceV1GidIsStillCritical) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  auto& gids = node.devices[0].ports[0].gids;
  gids.pop_back();  // drop the v2 entry
  auto findings = CheckPortsAndGidTables(node, {{"eth0", WithAddress("eth0", "10.0.0.2")}});
  EXPECT_EQ(CheckNames(findings), std::vector<std::string>{"ipv4_without_roce_v2_gid"});
}

TEST(GidTableChecks, UnknownAddressesAreNotJudged) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {}));
  EXPECT_TRUE(CheckPortsAndGidTables(node, {}).empty());
}

TEST(GidTableChecks, AHoleBelowAnIpGidIsAWarningNamingSlotsAndGid) {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_3", "eth3", {"10.0.3.2"}, /*first_ip_index=*/4));
  auto findings = CheckPortsAndGidTables(node, {{"eth3", WithAddress("eth3", "10.0.3.2")}});
  ASSERT_EQ(CheckNames(findings), std::vector<std::string>{"gid_table_hole"});
  EXPECT_NE(findings[0].message.find("empty slot(s) 2,3 below roce_v1 GID 10.0.3.2 at index 4"),
            std::string::npos)
      << findings[0].message;
  EXPECT_EQ(HolesBelowNonDefaultGids(node.devices[0].ports[0]), (std::vector<uint32_t>{2, 3}));
}

TEST(GidTableChecks, EmptySlotsAboveTheLastGidAreNotHoles) {
  Port port = RocePort(1, "eth0", {"10.0.0.2"});
  EXPECT_TRUE(HolesBelowNonDefaultGids(port).empty());
  Port defaults_only = RocePort(1, "eth0", {});
  defaults_only.gids.erase(defaults_only.gids.begin());  // slot 0 empty, only link-local above
  EXPECT_TRUE(HolesBelowNonDefaultGids(defaults_only).empty());
}

}  // namespace
}  // namespace rocewatch
