#include "fabric/rail_plan.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

std::string ErrorOf(std::string_view text) {
  StatusOr<RailPlan> plan = ParseRailPlan(text);
  return plan.ok() ? "parsed" : plan.status().message();
}

TEST(RailPlanTest, ParsesLinesSkippingCommentsAndBlanks) {
  StatusOr<RailPlan> plan = ParseRailPlan(
      "# rail switch port\n\n*\tsu1-leaf-r{rail1}   swp{n}  # every rail\r\nmlx5_7 spare-leaf *\n");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->lines.size(), 2u);
  EXPECT_EQ(plan->lines[0].rail, "*");
  EXPECT_EQ(plan->lines[0].switch_pattern, "su1-leaf-r{rail1}");
  EXPECT_EQ(plan->lines[0].port_pattern, "swp{n}");
  EXPECT_EQ(plan->lines[0].line_number, 3);
  EXPECT_EQ(plan->lines[1].rail, "mlx5_7");
  EXPECT_EQ(plan->lines[1].line_number, 4);
  EXPECT_TRUE(plan->UsesNodeNumber());
}

TEST(RailPlanTest, RejectsBadLinesNamingTheLine) {
  EXPECT_EQ(ErrorOf("* leaf\n"), "line 1: expected 3 fields (rail switch port), got 2");
  EXPECT_EQ(ErrorOf("\n* leaf swp1 extra\n"),
            "line 2: expected 3 fields (rail switch port), got 4");
  EXPECT_EQ(ErrorOf("* leaf-{pod} swp1\n"),
            "line 1: unknown substitution {pod} (known: {rail} {rail1} {node} {n})");
  EXPECT_EQ(ErrorOf("* leaf-{rail swp1\n"), "line 1: '{' without '}'");
  EXPECT_EQ(ErrorOf("mlx5_0 a b\nmlx5_0 c d\n"), "line 2: rail mlx5_0 is planned twice");
  EXPECT_EQ(ErrorOf("* le\x1b[2Jaf swp1\n"),
            "line 1: a field with a non-printable or non-ASCII byte");
  EXPECT_EQ(ErrorOf("* l\xc3\xa9 swp1\n"),
            "line 1: a field with a non-printable or non-ASCII byte");
  EXPECT_EQ(ErrorOf("* " + std::string(kMaxRailPlanFieldBytes + 1, 'x') + " swp1\n"),
            "line 1: a field longer than 256 bytes");
  EXPECT_EQ(ErrorOf("# only a comment\n\n"), "no rail line (rail switch port)");
  EXPECT_EQ(ErrorOf(""), "no rail line (rail switch port)");
  EXPECT_EQ(ErrorOf(std::string(kMaxRailPlanBytes + 1, '#')), "larger than 65536 bytes");
  std::string many;
  for (size_t i = 0; i <= kMaxRailPlanLines; ++i) many += "r" + std::to_string(i) + " a b\n";
  EXPECT_EQ(ErrorOf(many), "line 1025: more than 1024 rail lines");
}

TEST(RailPlanTest, ANamedRailWinsOverTheStarLineWhereverItStands) {
  RailPlan plan = ParseRailPlan("* leaf-r{rail} swp{n}\nens8f0np0 spare {node}\n").value();
  RailIdentity seventh{"ens8f0np0", "mlx5_7", 1, 7};
  std::optional<PlannedFarEnd> p = PlanFor(plan, seventh, "gpu-0042");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->switch_pattern, "spare");
  EXPECT_EQ(p->port_pattern, "gpu-0042");
  EXPECT_EQ(p->line_number, 2);
  RailIdentity third{"ens3f0np0", "mlx5_2", 1, 2};
  p = PlanFor(plan, third, "gpu-0042");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->switch_pattern, "leaf-r2");
  EXPECT_EQ(p->port_pattern, "swp42");
  EXPECT_EQ(p->line_number, 1);
}

TEST(RailPlanTest, ARailIsNamedByNetdevDeviceOrPort) {
  RailPlan plan = ParseRailPlan("mlx5_1/1 a{rail1} x\nmlx5_2 b y\nens4f0np0 c z\n").value();
  EXPECT_EQ(PlanFor(plan, {"ens2f0np0", "mlx5_1", 1, 1}, "n")->switch_pattern, "a2");
  EXPECT_EQ(PlanFor(plan, {"ens3f0np0", "mlx5_2", 1, 2}, "n")->switch_pattern, "b");
  EXPECT_EQ(PlanFor(plan, {"ens4f0np0", "mlx5_3", 1, 3}, "n")->switch_pattern, "c");
  EXPECT_FALSE(PlanFor(plan, {"ens5f0np0", "mlx5_4", 1, 4}, "n").has_value())
      << "a rail the plan does not name, without a * line, is not planned";
  EXPECT_FALSE(PlanFor(plan, {"ens2f0np0", "mlx5_1", 2, 1}, "n").has_value())
      << "mlx5_1/1 does not name port 2";
}

TEST(RailPlanTest, ARailLineOfDashesRetiresTheRailFromAStarPlan) {
  RailPlan plan = ParseRailPlan("* leaf-r{rail1} swp{n}\nmlx5_3 - -\nens5f0np0 - swp9\n").value();
  const RailIdentity retired{"ens4f0np0", "mlx5_3", 1, 3};
  EXPECT_FALSE(PlanListsRail(plan, retired));
  EXPECT_FALSE(PlanFor(plan, retired, "gpu-7").has_value()) << "its far end is not judged";
  EXPECT_TRUE(PlanListsRail(plan, {"ens3f0np0", "mlx5_2", 1, 2})) << "the * line lists it";
  EXPECT_TRUE(PlanListsRail(plan, {"ens5f0np0", "mlx5_4", 1, 4})) << "a port pattern is a plan";
  RailPlan named = ParseRailPlan("mlx5_0 leaf-a swp1\n").value();
  EXPECT_TRUE(PlanListsRail(named, {"", "mlx5_0", 1, 0}));
  EXPECT_FALSE(PlanListsRail(named, {"ens2f0np0", "mlx5_1", 1, 0})) << "no line covers it";
}

TEST(RailPlanTest, MatchesTheSwitchByNameOrChassisAndThePortByIdOrDescription) {
  PlannedFarEnd planned{"leaf-r3*", "swp7", 1};
  EXPECT_TRUE(MatchesPlan(planned, "leaf-r3.pod1", "aa:bb", "swp7", ""));
  EXPECT_TRUE(MatchesPlan(planned, "", "leaf-r3", "Ethernet7", "swp7"));
  EXPECT_FALSE(MatchesPlan(planned, "leaf-r4", "aa:bb", "swp7", ""));
  EXPECT_FALSE(MatchesPlan(planned, "leaf-r3", "aa:bb", "swp8", "swp70"));
  EXPECT_TRUE(MatchesPlan({"*", "*", 1}, "", "aa:bb", "x", ""));
}

TEST(RailPlanTest, TheNodeNumberIsTheLastNumberWithoutLeadingZeros) {
  EXPECT_EQ(NodeNumber("gpu-007"), "7");
  EXPECT_EQ(NodeNumber("su2-node-0100-a"), "100");
  EXPECT_EQ(NodeNumber("node000"), "0");
  EXPECT_EQ(NodeNumber("login"), std::nullopt);
  EXPECT_EQ(NodeNumber(""), std::nullopt);
}

}  // namespace
}  // namespace rocewatch
