// A checkpoint reaching the rails one after the other (docs/detection.md, "Rails stopping one
// after the other"): the rails that stopped first collapse against siblings still running, and
// those collapses are withdrawn once every rail has stopped within --traffic-checkpoint-spread of
// them and the node has stayed silent that long; a rail that stopped longer before the others
// stays collapsed, and one that dies while its siblings carry on still collapses in 3 s. Every
// time is explicit: one observation per second of a fake clock.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/fake_clock.h"
#include "support/test_times.h"
#include "traffic/synthetic_rails.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

// An 8-rail node whose job holds every rail (consumers present), trained for a minute.
class TrafficCheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    detector_ = std::make_unique<TrafficDetector>(options);
    for (int i = 0; i < 60; ++i) Tick();
    ASSERT_EQ(CountIn(TrafficState::kNormal), 8);
  }
  // Rebuilds the detector with `options` and trains it again.
  void Restart() { SetUp(); }

  // One observation, one second after the previous one; records every collapse and withdrawal.
  void Tick() {
    clock.Advance(seconds(1));
    std::vector<PortTrafficSample> samples = rails.Step(seconds(1));
    for (PortTrafficSample& sample : samples) sample.consumers = ConsumerKnowledge::kPresent;
    detector_->Observe(clock.Now(), samples);
    for (int rail = 0; rail < rails.size(); ++rail) {
      const PortTrafficStatus& status = StatusOf(rail);
      const bool collapsed = status.state == TrafficState::kCollapsed;
      if (collapsed && !collapsed_since_[rail]) collapsed_since_[rail] = clock.Now();
      if (!collapsed && collapsed_since_[rail]) {
        longest_collapse_ = std::max(longest_collapse_, clock.Now() - *collapsed_since_[rail]);
        collapsed_since_[rail].reset();
        if (status.reason.find("collapse withdrawn") != std::string::npos) {
          withdrawn_.push_back(rail);
          last_withdrawal_reason_ = status.reason;
        }
      }
    }
  }
  void RunFor(Duration d) {
    for (Duration t{}; t < d; t += seconds(1)) Tick();
  }
  // Rail by rail, in order: stops each one and lets `apart` pass before the next.
  void StopOneAfterTheOther(Duration apart) {
    for (int rail = 0; rail < rails.size(); ++rail) {
      rails.SetRate(rail, 0);
      RunFor(apart);
    }
  }
  void StopAllButRail0(Duration after) {
    rails.SetRate(0, 0);
    RunFor(after);
    for (int rail = 1; rail < rails.size(); ++rail) rails.SetRate(rail, 0);
  }

  const TrafficDetector& detector() const { return *detector_; }
  const PortTrafficStatus& StatusOf(int rail) const {
    return *detector_->Find(SyntheticRails::Key(rail));
  }
  TrafficState StateOf(int rail) const { return StatusOf(rail).state; }
  int CountIn(TrafficState state) const {
    int n = 0;
    for (const auto& [key, status] : detector_->ports()) n += status.state == state;
    return n;
  }
  // The longest any rail has been collapsed, including a collapse still open.
  Duration LongestCollapse() const {
    Duration longest = longest_collapse_;
    for (const std::optional<MonoTime>& since : collapsed_since_)
      if (since) longest = std::max(longest, clock.Now() - *since);
    return longest;
  }

  FakeClock clock;
  TrafficOptions options;
  SyntheticRails rails{8, kBusyRailRate};
  std::vector<int> withdrawn_;
  std::string last_withdrawal_reason_;

 private:
  std::unique_ptr<TrafficDetector> detector_;
  std::vector<std::optional<MonoTime>> collapsed_since_ = std::vector<std::optional<MonoTime>>(8);
  Duration longest_collapse_{};
};

// RoceTrafficCollapsed waits this long (`for:` in deploy/prometheus/rocewatch-rules.yaml) before
// it fires: a collapse withdrawn sooner never pages.
constexpr Duration kCollapseAlertFor = minutes(1);

TEST_F(TrafficCheckpointTest, EightRailsStoppingOneSecondApartAreWithdrawnAndNeverPage) {
  StopOneAfterTheOther(seconds(1));  // 7 s from the first stop to the last
  // Rails 0 to 4 each saw a sibling carry traffic for 3 s after their own stop: collapsed, as on
  // the on-call trial's node.
  EXPECT_EQ(CountIn(TrafficState::kCollapsed), 5);
  RunFor(seconds(90));  // the checkpoint's pause
  EXPECT_EQ(CountIn(TrafficState::kIdle), 8);
  EXPECT_EQ(withdrawn_, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_NE(last_withdrawal_reason_.find("every rail of the node stopped within 3s of this one "
                                         "(checkpoint spread 15s)"),
            std::string::npos)
      << last_withdrawal_reason_;
  EXPECT_NE(last_withdrawal_reason_.find("the whole node paused (a checkpoint)"), std::string::npos)
      << last_withdrawal_reason_;
  // Rail 0 collapsed 3 s after its stop and was withdrawn once the node had been silent for the
  // spread: 4 s + 15 s after the last rail stopped.
  EXPECT_EQ(LongestCollapse(), seconds(19));
  EXPECT_LT(LongestCollapse(), kCollapseAlertFor);
  EXPECT_TRUE(detector().Findings().empty());
  rails.SetAllRates(kBusyRailRate);  // the job resumes
  RunFor(seconds(2));
  EXPECT_EQ(CountIn(TrafficState::kNormal), 8);
}

TEST_F(TrafficCheckpointTest, TwelveSecondsBetweenTheFirstAndTheLastStopIsACheckpoint) {
  StopAllButRail0(seconds(12));
  EXPECT_EQ(StateOf(0), TrafficState::kCollapsed);  // fast detection is kept meanwhile
  RunFor(options.checkpoint_spread - seconds(1));
  EXPECT_EQ(StateOf(0), TrafficState::kCollapsed);  // the node's silence is not a pause yet
  RunFor(seconds(2));
  EXPECT_EQ(StateOf(0), TrafficState::kIdle);
  EXPECT_NE(last_withdrawal_reason_.find("stopped within 12s of this one"), std::string::npos)
      << last_withdrawal_reason_;
  RunFor(seconds(90));
  EXPECT_EQ(CountIn(TrafficState::kIdle), 8);
  EXPECT_LT(LongestCollapse(), kCollapseAlertFor);
  EXPECT_TRUE(detector().Findings().empty());
}

TEST_F(TrafficCheckpointTest, ARailThatStoppedLongerThanTheSpreadBeforeTheOthersStaysCollapsed) {
  StopAllButRail0(seconds(20));  // it died; 20 s later the job stalled on it
  RunFor(minutes(5));
  EXPECT_EQ(StateOf(0), TrafficState::kCollapsed);
  EXPECT_FALSE(StatusOf(0).node_wide);
  EXPECT_EQ(CountIn(TrafficState::kIdle), 7);
  EXPECT_TRUE(withdrawn_.empty());
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "traffic_collapsed");
  EXPECT_EQ(findings[0].subject, "mlx5_0/1");
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
}

TEST_F(TrafficCheckpointTest, ARailDyingWhileItsSiblingsCarryOnCollapsesInThreeSeconds) {
  rails.SetRate(5, 0);
  RunFor(seconds(2));
  EXPECT_NE(StateOf(5), TrafficState::kCollapsed);
  Tick();
  EXPECT_EQ(StateOf(5), TrafficState::kCollapsed);
  RunFor(minutes(5));  // the siblings never stop: nothing to withdraw
  EXPECT_EQ(StateOf(5), TrafficState::kCollapsed);
  EXPECT_EQ(CountIn(TrafficState::kNormal), 7);
}

TEST_F(TrafficCheckpointTest, AGapBetweenTheJobsBurstsDoesNotWithdrawADeadRail) {
  rails.SetRate(5, 0);
  RunFor(seconds(4));
  ASSERT_EQ(StateOf(5), TrafficState::kCollapsed);
  for (int burst = 0; burst < 10; ++burst) {  // every rail silent 5 s in every 10 s
    for (int rail = 0; rail < rails.size(); ++rail)
      if (rail != 5) rails.SetRate(rail, 0);
    RunFor(seconds(5));
    for (int rail = 0; rail < rails.size(); ++rail)
      if (rail != 5) rails.SetRate(rail, kBusyRailRate);
    RunFor(seconds(5));
  }
  EXPECT_EQ(StateOf(5), TrafficState::kCollapsed);
  EXPECT_TRUE(withdrawn_.empty());
  EXPECT_GT(LongestCollapse(), kCollapseAlertFor);
}

TEST_F(TrafficCheckpointTest, AHungJobAfterAStaggeredStopIsTheNodeStopRulesCollapse) {
  StopOneAfterTheOther(seconds(1));
  RunFor(seconds(20));
  ASSERT_EQ(CountIn(TrafficState::kIdle), 8);  // withdrawn: the pause looked like a checkpoint
  RunFor(options.node_stop_window);            // ... that never ended: the job is hung
  EXPECT_EQ(CountIn(TrafficState::kCollapsed), 8);
  for (int rail = 0; rail < rails.size(); ++rail) EXPECT_TRUE(StatusOf(rail).node_wide) << rail;
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 8u);
  EXPECT_EQ(findings[0].check, "traffic_collapsed");  // its consumers are alive: critical
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("the job is hung"), std::string::npos) << findings[0].message;
}

TEST_F(TrafficCheckpointTest, WithoutASpreadEveryCollapseHolds) {
  options.checkpoint_spread = Duration::zero();
  Restart();
  StopOneAfterTheOther(seconds(1));
  RunFor(seconds(90));
  EXPECT_EQ(CountIn(TrafficState::kCollapsed), 5);
  EXPECT_TRUE(withdrawn_.empty());
}

TEST_F(TrafficCheckpointTest, AWiderSpreadWithdrawsWiderStaggers) {
  options.checkpoint_spread = seconds(30);
  Restart();
  StopAllButRail0(seconds(20));
  RunFor(seconds(31));
  EXPECT_EQ(StateOf(0), TrafficState::kIdle);
  EXPECT_EQ(withdrawn_, std::vector<int>{0});
}

// A collapse the detector resumed from another's view (the daemon's, for diagnose --watch; the
// state file, across a restart) has no known stop time: a pause of the whole node does not
// withdraw it, since the rail may have died long before its siblings stopped.
TEST(TrafficCheckpointResume, AResumedCollapseIsNotWithdrawnByALaterPause) {
  FakeClock clock;
  SyntheticRails rails(4, kBusyRailRate);
  rails.SetRate(2, 0);
  TrafficDetector watch{TrafficOptions{}};
  clock.Advance(seconds(1));
  std::vector<PortTrafficSample> first = rails.Step(seconds(1));
  for (const PortTrafficSample& sample : first) {
    PortTrafficResume from;
    from.baseline = kBusyRailRate;
    from.state =
        sample.key == SyntheticRails::Key(2) ? TrafficState::kCollapsed : TrafficState::kNormal;
    from.transmit_bytes = sample.transmit_bytes;
    from.receive_bytes = sample.receive_bytes;
    from.counters_at = clock.Now();
    watch.Resume(sample.key, from);
  }
  rails.SetAllRates(0);
  for (int i = 0; i < 60; ++i) {
    clock.Advance(seconds(1));
    watch.Observe(clock.Now(), rails.Step(seconds(1)));
  }
  EXPECT_EQ(watch.Find(SyntheticRails::Key(2))->state, TrafficState::kCollapsed);
  EXPECT_EQ(watch.Find(SyntheticRails::Key(0))->state, TrafficState::kIdle);
}

}  // namespace
}  // namespace rocewatch
