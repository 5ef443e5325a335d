// CallWatch and StuckCalls: a call in flight across two looks is stuck, listed, refused to every
// other thread until it returns, and its watch refuses every later call.
#include "os/call_watch.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

class CallWatchTest : public ::testing::Test {
 protected:
  std::shared_ptr<StuckCalls> stuck_ = std::make_shared<StuckCalls>();
  CallWatch watch_{stuck_};
};

TEST_F(CallWatchTest, ACallStillInFlightAtTheNextLookIsStuckAndListed) {
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/a"));
  const uint64_t look = watch_.calls();
  auto taken = watch_.TakeIfStuck(look);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->what, "/sys/a");
  EXPECT_TRUE(watch_.abandoned());
  ASSERT_EQ(stuck_->List().size(), 1u);
  EXPECT_EQ(stuck_->List()[0].source, "sysfs");
  EXPECT_TRUE(stuck_->Contains("/sys/a"));
}

TEST_F(CallWatchTest, AThreadThatMadeProgressSinceTheLastLookIsNotStuck) {
  const uint64_t look = watch_.calls();
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/a"));
  watch_.End();
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/b"));
  EXPECT_FALSE(watch_.TakeIfStuck(look).has_value());
  EXPECT_FALSE(watch_.abandoned());
  EXPECT_EQ(stuck_->size(), 0u);
}

TEST_F(CallWatchTest, AThreadBetweenCallsIsNotStuck) {
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/a"));
  watch_.End();
  EXPECT_FALSE(watch_.TakeIfStuck(watch_.calls()).has_value());
}

TEST_F(CallWatchTest, AStuckCallIsRefusedToOtherThreadsUntilItReturns) {
  CallWatch other(stuck_);
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/a"));
  ASSERT_TRUE(watch_.TakeIfStuck(watch_.calls()).has_value());
  EXPECT_FALSE(other.Begin("sysfs", "/sys/a"));
  ASSERT_TRUE(other.Begin("sysfs", "/sys/b"));  // the rest is read
  other.End();
  watch_.End();  // the stuck call returned after all
  EXPECT_EQ(stuck_->size(), 0u);
  EXPECT_TRUE(other.Begin("sysfs", "/sys/a"));
}

TEST_F(CallWatchTest, AnAbandonedWatchRefusesEveryLaterCall) {
  ASSERT_TRUE(watch_.Begin("sysfs", "/sys/a"));
  ASSERT_TRUE(watch_.TakeIfStuck(watch_.calls()).has_value());
  watch_.End();
  EXPECT_FALSE(watch_.Begin("sysfs", "/sys/b"));
}

}  // namespace
}  // namespace rocewatch
