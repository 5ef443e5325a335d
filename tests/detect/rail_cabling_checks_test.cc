#include "fabric/rail_cabling_checks.h"

#include <gtest/gtest.h>

#include "support/finding_names.h"
#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

LldpFrame ParseCablingFrame(const LldpFrameBuilder& b) { return ParseLldpFrame(b.Build()).value(); }

// A node of `count` rails, ensNf0np0 on mlx5_(N-1), given in reverse order: NumberRails sorts.
std::vector<CabledRail> Rails(const std::vector<const LldpFrame*>& neighbors) {
  std::vector<CabledRail> rails;
  for (size_t i = neighbors.size(); i-- > 0;)
    rails.push_back({{"ens" + std::to_string(i + 1) + "f0np0", "mlx5_" + std::to_string(i), 1, 99},
                     neighbors[i]});
  NumberRails(rails);
  return rails;
}

TEST(RailCablingChecksTest, RailsAreNumberedInNaturalOrderOfDeviceAndPort) {
  std::vector<CabledRail> rails = {{{"b", "mlx5_10", 1, 0}, nullptr},
                                   {{"a", "mlx5_2", 2, 0}, nullptr},
                                   {{"c", "mlx5_2", 1, 0}, nullptr}};
  NumberRails(rails);
  EXPECT_EQ(rails[0].identity.netdev, "c");
  EXPECT_EQ(rails[1].identity.netdev, "a");
  EXPECT_EQ(rails[2].identity.netdev, "b");
  EXPECT_EQ(rails[2].identity.index, 2u);
}

TEST(RailCablingChecksTest, ARailOptimizedNodeCabledAsPlannedHasNoFinding) {
  RailPlan plan = ParseRailPlan("* leaf-0{rail1} swp{n}\n").value();
  LldpFrame l1 = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 42));
  LldpFrame l2 = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 42));
  LldpFrame l3 = ParseCablingFrame(LldpFrameBuilder::Leaf(3, 42));
  RailCablingResult r = CheckRailCabling({Rails({&l1, &l2, &l3, nullptr}), &plan, "gpu-042"});
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].message;
  ASSERT_EQ(r.verdicts.size(), 3u) << "a rail without a neighbor has no verdict";
  for (const RailCablingVerdict& v : r.verdicts) EXPECT_TRUE(v.as_planned) << v.netdev;
  EXPECT_EQ(r.verdicts[2].planned.switch_pattern, "leaf-03");
  EXPECT_EQ(r.verdicts[2].planned.port_pattern, "swp42");
}

TEST(RailCablingChecksTest, TwoSwappedRailsAreMiscabledAndNameWhereEachBelongs) {
  RailPlan plan = ParseRailPlan("* leaf-0{rail1} swp{n}\n").value();
  LldpFrame l1 = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 42));
  LldpFrame l2 = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 42));
  LldpFrame l3 = ParseCablingFrame(LldpFrameBuilder::Leaf(3, 42));
  // Rails 1 and 2 swapped: ens2 reaches leaf-03, ens3 reaches leaf-02.
  RailCablingResult r = CheckRailCabling({Rails({&l1, &l3, &l2}), &plan, "gpu-042"});
  ASSERT_EQ(ChecksWithSubjects(r.findings),
            (std::vector<std::string>{"rail_miscabled@ens2f0np0", "rail_miscabled@ens3f0np0"}));
  EXPECT_EQ(r.findings[0].severity, Severity::kCritical);
  EXPECT_EQ(r.findings[0].message,
            "ens2f0np0 (mlx5_1/1, rail 1) is cabled to leaf-03 port swp42, where rail 2 "
            "(ens3f0np0) belongs; the rail plan (line 1) expects switch leaf-02 port swp42: "
            "rail-local traffic crosses the spine or, on a rail-only fabric, cannot reach its "
            "peers (QP timeouts)");
  EXPECT_FALSE(r.verdicts[1].as_planned);
  EXPECT_TRUE(r.verdicts[0].as_planned);
}

TEST(RailCablingChecksTest, AWrongPortOnTheRightSwitchIsMiscabledToo) {
  RailPlan plan = ParseRailPlan("* leaf-0{rail1} swp{n}\n").value();
  LldpFrame l1 = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 41));
  RailCablingResult r = CheckRailCabling({Rails({&l1}), &plan, "gpu-042"});
  ASSERT_EQ(ChecksWithSubjects(r.findings), std::vector<std::string>{"rail_miscabled@ens1f0np0"});
  EXPECT_NE(r.findings[0].message.find("cabled to leaf-01 port swp41; the rail plan (line 1) "
                                       "expects switch leaf-01 port swp42"),
            std::string::npos)
      << r.findings[0].message;
}

TEST(RailCablingChecksTest, ARailThePlanDoesNotNameIsNotJudged) {
  RailPlan plan = ParseRailPlan("mlx5_0 leaf-01 *\n").value();
  LldpFrame l9 = ParseCablingFrame(LldpFrameBuilder::Leaf(9, 1));
  RailCablingResult r = CheckRailCabling({Rails({&l9, &l9}), &plan, "n"});
  EXPECT_EQ(ChecksWithSubjects(r.findings), std::vector<std::string>{"rail_miscabled@ens1f0np0"});
  EXPECT_EQ(r.verdicts.size(), 1u);
}

TEST(RailCablingChecksTest, WithoutAPlanTwoRailsOnOneSwitchOfARailOptimizedNodeAreSuspect) {
  LldpFrame a = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 42));
  LldpFrame b = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 42));
  LldpFrame b2 = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 43));
  LldpFrame d = ParseCablingFrame(LldpFrameBuilder::Leaf(4, 42));
  RailCablingResult r = CheckRailCabling({Rails({&a, &b, &b2, &d}), nullptr, "gpu-042"});
  ASSERT_EQ(
      ChecksWithSubjects(r.findings),
      (std::vector<std::string>{"rail_layout_suspect@ens2f0np0", "rail_layout_suspect@ens3f0np0"}));
  EXPECT_EQ(r.findings[0].severity, Severity::kWarning);
  EXPECT_NE(r.findings[0].message.find("rails ens2f0np0 and ens3f0np0 land on the same switch"),
            std::string::npos)
      << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("inferred"), std::string::npos);
  EXPECT_TRUE(r.verdicts.empty());
}

TEST(RailCablingChecksTest, WithoutAPlanAnOddPortNumberOnARailOptimizedNodeIsSuspect) {
  LldpFrame a = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 42));
  LldpFrame b = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 42));
  LldpFrame c = ParseCablingFrame(LldpFrameBuilder::Leaf(3, 17));
  RailCablingResult r = CheckRailCabling({Rails({&a, &b, &c}), nullptr, "x"});
  ASSERT_EQ(ChecksWithSubjects(r.findings),
            std::vector<std::string>{"rail_layout_suspect@ens3f0np0"});
  EXPECT_NE(r.findings[0].message.find("reaches leaf-03 port swp17 while 2 of 3 rails reach port "
                                       "swp42"),
            std::string::npos)
      << r.findings[0].message;
}

TEST(RailCablingChecksTest, WithoutAPlanOtherLayoutsAreNotJudged) {
  LldpFrame a = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 1));
  LldpFrame a2 = ParseCablingFrame(LldpFrameBuilder::Leaf(1, 2));
  LldpFrame b = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 3));
  LldpFrame b2 = ParseCablingFrame(LldpFrameBuilder::Leaf(2, 4));
  // Every rail on one switch (a small cluster), two switches of two rails each, too few rails,
  // every rail on its own switch with ports that follow no majority.
  EXPECT_TRUE(CheckRailCabling({Rails({&a, &a2, &a2}), nullptr, "x"}).findings.empty());
  EXPECT_TRUE(CheckRailCabling({Rails({&a, &a2, &b, &b2}), nullptr, "x"}).findings.empty());
  EXPECT_TRUE(CheckRailCabling({Rails({&a, &b2}), nullptr, "x"}).findings.empty());
  LldpFrame c = ParseCablingFrame(LldpFrameBuilder::Leaf(3, 5));
  EXPECT_TRUE(CheckRailCabling({Rails({&a, &b, &c}), nullptr, "x"}).findings.empty());
  EXPECT_TRUE(CheckRailCabling({Rails({&a, &b, nullptr, nullptr}), nullptr, "x"}).findings.empty());
}

}  // namespace
}  // namespace rocewatch
