#include "core/event_loop.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <vector>

#include "support/fake_clock.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

TEST(EventLoop, RunsDueTimersInDeadlineOrderAndOnlyOnce) {
  FakeClock clock;
  EventLoop loop(clock);
  std::vector<int> fired;
  loop.ScheduleAfter(milliseconds(20), [&] { fired.push_back(2); });
  loop.ScheduleAfter(milliseconds(10), [&] { fired.push_back(1); });
  loop.ScheduleAfter(milliseconds(500), [&] { fired.push_back(3); });
  clock.Advance(milliseconds(25));
  EXPECT_EQ(loop.RunOnce(Duration::zero()).timers_fired, 2);
  EXPECT_EQ(loop.RunOnce(Duration::zero()).timers_fired, 0);
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
}

TEST(EventLoop, CancelledTimerNeverRuns) {
  FakeClock clock;
  EventLoop loop(clock);
  bool ran = false;
  EventLoop::TimerId id = loop.ScheduleAfter(milliseconds(1), [&] { ran = true; });
  loop.Cancel(id);
  clock.Advance(milliseconds(5));
  loop.RunOnce(Duration::zero());
  EXPECT_FALSE(ran);
  EXPECT_FALSE(loop.IsScheduled(id));
}

TEST(EventLoop, DispatchesReadableFds) {
  SystemClock clock;
  EventLoop loop(clock);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  int calls = 0;
  loop.WatchFd(fds[0], [&](short) {
    char c;
    ASSERT_EQ(read(fds[0], &c, 1), 1);
    ++calls;
  });
  EXPECT_EQ(loop.RunOnce(Duration::zero()).fds_dispatched, 0);
  ASSERT_EQ(write(fds[1], "x", 1), 1);
  EXPECT_EQ(loop.RunOnce(milliseconds(1000)).fds_dispatched, 1);
  EXPECT_EQ(calls, 1);
  loop.UnwatchFd(fds[0]);
  close(fds[0]);
  close(fds[1]);
}

TEST(EventLoop, StopEndsRun) {
  FakeClock clock;
  EventLoop loop(clock);
  loop.ScheduleAfter(Duration::zero(), [&] { loop.Stop(); });
  loop.Run();
  EXPECT_TRUE(loop.stopped());
}

}  // namespace
}  // namespace rocewatch
