#include "slurm_check/drain_budget.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(DrainBudgetTest, CountOrPercentage) {
  StatusOr<DrainBudget> count = ParseDrainBudget("3");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->LimitFor(1000), 3);
  EXPECT_EQ(count->ToString(), "3");
  StatusOr<DrainBudget> percent = ParseDrainBudget("10%");
  ASSERT_TRUE(percent.ok());
  EXPECT_EQ(percent->LimitFor(1000), 100);
  EXPECT_EQ(percent->LimitFor(25), 2);
  EXPECT_EQ(percent->LimitFor(4), 1);  // at least one node of a small scope
  EXPECT_EQ(percent->ToString(), "10%");
  EXPECT_EQ(ParseDrainBudget("0")->LimitFor(10), 0);  // 0: never drain
}

TEST(DrainBudgetTest, RejectsWhatIsNeitherCountNorPercentage) {
  for (const char* bad : {"", "-1", "ten", "0%", "101%", "%", "5 %x", "1e9"})
    EXPECT_FALSE(ParseDrainBudget(bad).ok()) << bad;
}

}  // namespace
}  // namespace rocewatch
