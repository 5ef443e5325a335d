// The inventory logs failed reads when they start, change and heal, not once per poll.
#include "inventory/read_failure_log.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using std::chrono::seconds;

const MonoTime kReadLogStart{seconds(1000)};
const ReadFailure kFailedGidRead{"sysfs", "/sys/class/infiniband/mlx5_0/ports/1/gids/3", 5};
const ReadFailure kFailedCounterRead{"sysfs", "/sys/class/infiniband/mlx5_1/ports/1/counters/x",
                                     110};

TEST(ReadFailureLog, AHealthyNodeLogsNothing) {
  ReadFailureLog log;
  for (int s = 0; s < 5; ++s) EXPECT_FALSE(log.Observe(kReadLogStart + seconds(s), false, 0, {}));
}

TEST(ReadFailureLog, TheSameFailureEverySecondIsOneWarningThenOneHealing) {
  ReadFailureLog log;
  std::optional<ReadFailureLog::Line> first = log.Observe(kReadLogStart, true, 1, {kFailedGidRead});
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(first->warning);
  EXPECT_EQ(first->text,
            "inventory: 1 sysfs read failed in this poll (/sys/class/infiniband/mlx5_0/ports/1/"
            "gids/3: " +
                ErrnoText(5) + "); the read_failed finding says what it hides");
  for (int s = 1; s < 300; ++s)
    EXPECT_FALSE(log.Observe(kReadLogStart + seconds(s), true, 1, {kFailedGidRead}));
  std::optional<ReadFailureLog::Line> healed =
      log.Observe(kReadLogStart + seconds(300), false, 0, {});
  ASSERT_TRUE(healed.has_value());
  EXPECT_FALSE(healed->warning);
  EXPECT_EQ(healed->text, "inventory: every sysfs read succeeds again");
  EXPECT_FALSE(log.Observe(kReadLogStart + seconds(301), false, 0, {}));
}

TEST(ReadFailureLog, ANewFailingFileIsLoggedAtMostOncePerInterval) {
  ReadFailureLog log(seconds(60));
  ASSERT_TRUE(log.Observe(kReadLogStart, true, 1, {kFailedGidRead}));
  // Another file fails 10 s later: said, but not before the interval has passed.
  EXPECT_FALSE(
      log.Observe(kReadLogStart + seconds(10), true, 2, {kFailedGidRead, kFailedCounterRead}));
  EXPECT_FALSE(
      log.Observe(kReadLogStart + seconds(59), true, 2, {kFailedGidRead, kFailedCounterRead}));
  std::optional<ReadFailureLog::Line> changed =
      log.Observe(kReadLogStart + seconds(60), true, 2, {kFailedGidRead, kFailedCounterRead});
  ASSERT_TRUE(changed.has_value());
  EXPECT_NE(changed->text.find("2 sysfs reads failed"), std::string::npos) << changed->text;
  EXPECT_NE(changed->text.find("counters/x"), std::string::npos) << changed->text;
  // The first file alone again: nothing new to say.
  EXPECT_FALSE(log.Observe(kReadLogStart + seconds(200), true, 1, {kFailedGidRead}));
}

TEST(ReadFailureLog, HostPathsAreEscapedAndAnUnknownTableWithoutAFailedReadIsSaid) {
  ReadFailureLog log;
  std::optional<ReadFailureLog::Line> line =
      log.Observe(kReadLogStart, true, 1, {{"sysfs", "/sys/class/infiniband/evil\x1b[2J/x", 5}});
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->text.find('\x1b'), std::string::npos) << line->text;
  EXPECT_NE(line->text.find("evil\\x1b[2J"), std::string::npos) << line->text;
  ReadFailureLog unknown;
  line = unknown.Observe(kReadLogStart, true, 0, {});
  ASSERT_TRUE(line.has_value());
  EXPECT_EQ(line->text,
            "inventory: a GID table, GID slot or counter is still unknown; the read_failed "
            "finding says what it hides");
}

}  // namespace
}  // namespace rocewatch
