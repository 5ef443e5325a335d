#include "fabric/fabric_checks.h"

#include <gtest/gtest.h>

#include "support/finding_names.h"
#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

LldpFrame Parse(const LldpFrameBuilder& b) { return ParseLldpFrame(b.Build()).value(); }

TEST(FabricChecksTest, AHealthyRailHasNoFinding) {
  LldpFrame leaf = Parse(LldpFrameBuilder::Leaf(7, 3).Pfc(0x08).RocePriority(3).MaxFrameSize(9216));
  EXPECT_TRUE(
      CheckFabric({{{"rnic0", "mlx5_0/1", &leaf, 9000, std::nullopt}}, seconds(600)}).empty());
}

TEST(FabricChecksTest, ANeighborThatIsNoSwitch) {
  LldpFrame host = Parse(LldpFrameBuilder().PortName("eth0").Capabilities(0x0080, 0x0080));
  std::vector<Finding> f =
      CheckFabric({{{"rnic0", "mlx5_0/1", &host, std::nullopt, std::nullopt}}, seconds(1)});
  ASSERT_EQ(ChecksWithSubjects(f), std::vector<std::string>{"lldp_neighbor_not_switch@rnic0"});
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_NE(f[0].message.find("capabilities supported 0x0080"), std::string::npos) << f[0].message;
  LldpFrame silent = Parse(LldpFrameBuilder().PortName("eth0"));
  f = CheckFabric({{{"rnic0", "mlx5_0/1", &silent, std::nullopt, std::nullopt}}, seconds(1)});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("no capabilities TLV"), std::string::npos);
}

TEST(FabricChecksTest, TwoRailsOnOneSwitchPort) {
  LldpFrame a = Parse(LldpFrameBuilder::Leaf(7, 3));
  LldpFrame b = Parse(LldpFrameBuilder::Leaf(7, 3));
  LldpFrame c = Parse(LldpFrameBuilder::Leaf(7, 4));
  std::vector<Finding> f = CheckFabric({{{"rnic0", "mlx5_0/1", &a, {}, std::nullopt},
                                         {"rnic1", "mlx5_1/1", &b, {}, std::nullopt},
                                         {"rnic2", "mlx5_2/1", &c, {}, std::nullopt}},
                                        seconds(1)});
  EXPECT_EQ(ChecksWithSubjects(f), (std::vector<std::string>{"lldp_shared_switch_port@rnic0",
                                                             "lldp_shared_switch_port@rnic1"}));
  EXPECT_NE(f[0].message.find("rnic0, rnic1"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("leaf-07 port swp3"), std::string::npos);
}

TEST(FabricChecksTest, PfcOffOnTheRocePriorityIsCritical) {
  LldpFrame leaf = Parse(LldpFrameBuilder::Leaf(7, 3).Pfc(0x10).RocePriority(3));
  std::vector<Finding> f =
      CheckFabric({{{"rnic0", "mlx5_0/1", &leaf, {}, std::nullopt}}, seconds(1)});
  ASSERT_EQ(ChecksWithSubjects(f),
            std::vector<std::string>{"switch_pfc_missing_roce_priority@rnic0"});
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("priority 3"), std::string::npos);
  // Without the switch saying which priority RoCE uses, the PFC bitmap alone is not judged.
  LldpFrame unsaid = Parse(LldpFrameBuilder::Leaf(7, 3).Pfc(0x10));
  EXPECT_TRUE(
      CheckFabric({{{"rnic0", "mlx5_0/1", &unsaid, {}, std::nullopt}}, seconds(1)}).empty());
}

TEST(FabricChecksTest, MaxFrameSizeBelowMtuPlusHeaders) {
  LldpFrame leaf = Parse(LldpFrameBuilder::Leaf(7, 3).MaxFrameSize(9017));
  std::vector<Finding> f =
      CheckFabric({{{"rnic0", "mlx5_0/1", &leaf, 9000, std::nullopt}}, seconds(1)});
  ASSERT_EQ(ChecksWithSubjects(f), std::vector<std::string>{"switch_max_frame_too_small@rnic0"});
  LldpFrame exact = Parse(LldpFrameBuilder::Leaf(7, 3).MaxFrameSize(9018));
  EXPECT_TRUE(
      CheckFabric({{{"rnic0", "mlx5_0/1", &exact, 9000, std::nullopt}}, seconds(1)}).empty());
  EXPECT_TRUE(CheckFabric({{{"rnic0", "mlx5_0/1", &leaf, std::nullopt, std::nullopt}}, seconds(1)})
                  .empty());
}

TEST(FabricChecksTest, NoLldpAnywhereIsOneInfoLineAfterListening) {
  FabricObservation none{
      {{"rnic0", "mlx5_0/1", nullptr, {}, {}}, {"rnic1", "mlx5_1/1", nullptr, {}, {}}},
      kLldpAbsentAfter - seconds(1)};
  EXPECT_TRUE(CheckFabric(none).empty());
  none.listening_for = kLldpAbsentAfter;
  std::vector<Finding> f = CheckFabric(none);
  ASSERT_EQ(ChecksWithSubjects(f), std::vector<std::string>{"lldp_absent@node"});
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  LldpFrame leaf = Parse(LldpFrameBuilder::Leaf(7, 3));
  none.rails[1].neighbor = &leaf;
  EXPECT_TRUE(CheckFabric(none).empty());
  EXPECT_TRUE(CheckFabric({{}, seconds(600)}).empty());  // not listening anywhere
}

}  // namespace
}  // namespace rocewatch

namespace rocewatch {
namespace {

TEST(FabricChecksHostPfcTest, TheSwitchAndTheHostEnablingDifferentPrioritiesIsCritical) {
  LldpFrame leaf = Parse(LldpFrameBuilder::Leaf(7, 3).Pfc(0x08));
  RailFarEnd rail{"rnic0", "mlx5_0/1", &leaf, std::nullopt, 0x18};
  std::vector<Finding> f = CheckFabric({{rail}, seconds(1)});
  ASSERT_EQ(ChecksWithSubjects(f), std::vector<std::string>{"switch_pfc_differs_from_host@rnic0"});
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("enables PFC on priorities 3, the host on 3,4"), std::string::npos)
      << f[0].message;
  // The same priorities, an unknown host side, or a switch that sends no PFC TLV: nothing.
  rail.host_pfc_enabled = 0x08;
  EXPECT_TRUE(CheckFabric({{rail}, seconds(1)}).empty());
  rail.host_pfc_enabled.reset();
  EXPECT_TRUE(CheckFabric({{rail}, seconds(1)}).empty());
  LldpFrame silent = Parse(LldpFrameBuilder::Leaf(7, 3));
  EXPECT_TRUE(
      CheckFabric({{{"rnic0", "mlx5_0/1", &silent, std::nullopt, 0x00}}, seconds(1)}).empty());
  // PFC off on the host, on on the switch.
  std::vector<Finding> off =
      CheckFabric({{{"rnic0", "mlx5_0/1", &leaf, std::nullopt, 0x00}}, seconds(1)});
  ASSERT_EQ(off.size(), 1u);
  EXPECT_NE(off[0].message.find("the host on none"), std::string::npos) << off[0].message;
}

}  // namespace
}  // namespace rocewatch
