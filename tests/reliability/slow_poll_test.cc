// A poll that takes longer than the interval (a hung sysfs read, a machine under memory pressure)
// must not make the daemon burst the missed polls afterwards, nor drift off its cadence.
#include <gtest/gtest.h>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

// Takes `slow_by` of (fake) time on the polls the test marks slow.
class SlowSnapshotSource final : public SnapshotSource {
 public:
  explicit SlowSnapshotSource(FakeClock& clock) : clock_(clock) {
    node_.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  }
  StatusOr<NodeSnapshot> Take() override {
    ++takes;
    taken_at.push_back(clock_.Now());
    if (slow_next) {
      slow_next = false;
      clock_.Advance(slow_by);
    }
    return node_;
  }
  const char* gid_source_name() const override { return "sysfs"; }

  bool slow_next = false;
  Duration slow_by{};
  int takes = 0;
  std::vector<MonoTime> taken_at;

 private:
  FakeClock& clock_;
  NodeSnapshot node_;
};

TEST(SlowPollTest, AnOverrunningPollSkipsTheMissedIntervalsAndKeepsTheCadence) {
  FakeClock clock;
  EventLoop loop(clock);
  SlowSnapshotSource source(clock);
  Monitor monitor(loop, source, MonitorOptions{std::chrono::seconds(1), milliseconds(100)});
  ASSERT_TRUE(monitor.Start().ok());
  auto run_for = [&](Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(10)) {
      clock.Advance(milliseconds(10));
      loop.RunOnce(Duration::zero());
    }
  };
  run_for(std::chrono::seconds(3));
  ASSERT_EQ(source.takes, 4);  // start + 3

  source.slow_next = true;
  source.slow_by = milliseconds(3500);  // the next poll overruns three and a half intervals
  run_for(std::chrono::seconds(1));
  const int after_slow = source.takes;
  run_for(milliseconds(5500));
  // No burst of the missed polls: one per interval from the end of the slow one.
  EXPECT_EQ(source.takes - after_slow, 5);
  for (size_t i = source.taken_at.size() - 4; i < source.taken_at.size(); ++i) {
    Duration gap = source.taken_at[i] - source.taken_at[i - 1];
    EXPECT_GE(gap, milliseconds(1000));
    EXPECT_LE(gap, milliseconds(1010));
  }
}

}  // namespace
}  // namespace rocewatch
