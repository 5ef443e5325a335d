#include "traffic/counter_series.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class CounterSeriesTest : public ::testing::Test {
 protected:
  std::optional<CounterIncrease> Read(std::optional<uint64_t> value, Duration after = seconds(1)) {
    clock.Advance(after);
    return series.Observe(clock.Now(), value);
  }
  FakeClock clock;
  CounterSeries series{kQCounter32};
};

TEST_F(CounterSeriesTest, FirstValueGivesNoIncrease) { EXPECT_FALSE(Read(100)); }

TEST_F(CounterSeriesTest, IncreasesOverTime) {
  Read(100);
  std::optional<CounterIncrease> increase = Read(400, seconds(2));
  ASSERT_TRUE(increase);
  EXPECT_EQ(increase->delta, 300u);
  EXPECT_DOUBLE_EQ(increase->PerSecond(), 150.0);
}

TEST_F(CounterSeriesTest, AFailedReadIsNoRateAndTheNextReadSpansTheGap) {
  Read(100);
  EXPECT_FALSE(Read(std::nullopt));
  EXPECT_FALSE(Read(std::nullopt));
  std::optional<CounterIncrease> increase = Read(400);
  ASSERT_TRUE(increase);
  EXPECT_EQ(increase->delta, 300u);
  EXPECT_EQ(increase->span, seconds(3));
}

TEST_F(CounterSeriesTest, AResetRestartsTheSeriesWithoutANegativeOrHugeRate) {
  Read(1'000'000);
  EXPECT_FALSE(Read(50));  // device reset
  EXPECT_EQ(series.resets(), 1u);
  std::optional<CounterIncrease> increase = Read(80);
  ASSERT_TRUE(increase);
  EXPECT_EQ(increase->delta, 30u);
}

TEST_F(CounterSeriesTest, AWrapCountsThrough) {
  Read(0xFFFFFF00u);
  std::optional<CounterIncrease> increase = Read(0x10);
  ASSERT_TRUE(increase);
  EXPECT_EQ(increase->delta, 0x110u);
  EXPECT_EQ(series.wraps(), 1u);
}

TEST_F(CounterSeriesTest, ASaturatedCounterGivesNoRate) {
  CounterSeries pma(kPmaCounter32);
  clock.Advance(seconds(1));
  pma.Observe(clock.Now(), 0xFFFFFF00u);
  clock.Advance(seconds(1));
  EXPECT_FALSE(pma.Observe(clock.Now(), 0xFFFFFFFFu));
  clock.Advance(seconds(1));
  EXPECT_FALSE(pma.Observe(clock.Now(), 0xFFFFFFFFu));
  EXPECT_EQ(pma.saturations(), 2u);
}

TEST_F(CounterSeriesTest, AReadAtTheSameInstantIsIgnored) {
  Read(100);
  EXPECT_FALSE(Read(200, Duration::zero()));
  std::optional<CounterIncrease> increase = Read(300);
  ASSERT_TRUE(increase);
  EXPECT_EQ(increase->delta, 200u);
}

}  // namespace
}  // namespace rocewatch
