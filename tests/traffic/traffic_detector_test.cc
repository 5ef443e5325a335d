#include "traffic/traffic_detector.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "support/fake_clock.h"
#include "support/test_times.h"
#include "traffic/synthetic_rails.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

// An 8-rail node that has trained long enough for every rail to have a baseline.
class TrafficDetectorTest : public ::testing::Test {
 protected:
  TrafficDetector& detector() {
    if (!detector_) detector_ = std::make_unique<TrafficDetector>(options);
    return *detector_;
  }
  void Tick(Duration dt = seconds(1)) {
    clock.Advance(dt);
    detector().Observe(clock.Now(), rails.Step(dt));
  }
  void RunFor(Duration d, Duration step = seconds(1)) {
    for (Duration t{}; t < d; t += step) Tick(step);
  }
  void WarmUp() {
    RunFor(minutes(1));
    ASSERT_EQ(CountIn(TrafficState::kNormal), rails.size());
  }
  TrafficState StateOf(int rail) { return detector().Find(SyntheticRails::Key(rail))->state; }
  const PortTrafficStatus& StatusOf(int rail) {
    return *detector().Find(SyntheticRails::Key(rail));
  }
  int CountIn(TrafficState state) {
    int n = 0;
    for (const auto& [key, status] : detector().ports()) n += status.state == state;
    return n;
  }
  // Ticks second by second for at most `limit`; the time it took `rail` to reach `state`.
  std::optional<Duration> TimeUntil(int rail, TrafficState state, Duration limit) {
    for (Duration t = seconds(1); t <= limit; t += seconds(1)) {
      Tick();
      if (StateOf(rail) == state) return t;
    }
    return std::nullopt;
  }
  // Ticks for `d`; how many seconds any rail spent in `state`.
  int SecondsAnyRailIn(TrafficState state, Duration d) {
    int seen = 0;
    for (Duration t{}; t < d; t += seconds(1)) {
      Tick();
      seen += CountIn(state) > 0;
    }
    return seen;
  }

  FakeClock clock;
  TrafficOptions options;
  SyntheticRails rails{8, kBusyRailRate};

 private:
  std::unique_ptr<TrafficDetector> detector_;
};

TEST_F(TrafficDetectorTest, OneRailDyingWhileSevenContinueCollapsesWithinFiveSeconds) {
  WarmUp();
  rails.SetRate(3, 0);
  std::optional<Duration> took = TimeUntil(3, TrafficState::kCollapsed, seconds(10));
  ASSERT_TRUE(took.has_value());
  EXPECT_LE(*took, seconds(5));
  EXPECT_GE(*took, options.collapse_after);  // confirmed, not a single silent second
  EXPECT_EQ(CountIn(TrafficState::kNormal), 7);
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].check, "traffic_collapsed");
  EXPECT_EQ(findings[0].subject, "mlx5_3/1");
  EXPECT_NE(findings[0].message.find("while 7 of 7 sibling rails carry traffic"), std::string::npos)
      << findings[0].message;
}

TEST_F(TrafficDetectorTest, ARailDyingInTheMiddleOfAnIntervalCollapsesWithinFiveSeconds) {
  WarmUp();
  rails.Carry(3, milliseconds(500));  // its last bytes, half-way to the next poll
  rails.SetRate(3, 0);
  std::optional<Duration> took = TimeUntil(3, TrafficState::kCollapsed, seconds(10));
  ASSERT_TRUE(took.has_value());
  EXPECT_LE(*took - milliseconds(500), seconds(4));  // after its last byte
}

TEST_F(TrafficDetectorTest, ADeadRailRecoversWhenItsTrafficReturns) {
  WarmUp();
  rails.SetRate(3, 0);
  ASSERT_TRUE(TimeUntil(3, TrafficState::kCollapsed, seconds(10)));
  rails.SetRate(3, kBusyRailRate);
  Tick();
  Tick();
  EXPECT_EQ(StateOf(3), TrafficState::kNormal);
  EXPECT_TRUE(detector().Findings().empty());
}

TEST_F(TrafficDetectorTest, ATwoSecondStallOfOneRailIsNotACollapse) {
  WarmUp();
  rails.SetRate(3, 0);
  RunFor(seconds(2));
  rails.SetRate(3, kBusyRailRate);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kCollapsed, seconds(30)), 0);
}

TEST_F(TrafficDetectorTest, OneRailAtThirtyPercentOfItsBaselineIsDegraded) {
  WarmUp();
  rails.SetRate(2, 0.3 * kBusyRailRate);
  std::optional<Duration> took = TimeUntil(2, TrafficState::kDegraded, seconds(30));
  ASSERT_TRUE(took.has_value());
  EXPECT_GE(*took, options.degraded_after);
  EXPECT_LE(*took, options.degraded_after + seconds(2));
  EXPECT_EQ(CountIn(TrafficState::kNormal), 7);
  RunFor(minutes(5));  // the baseline does not learn the degraded rate
  EXPECT_EQ(StateOf(2), TrafficState::kDegraded);
  EXPECT_NEAR(*StatusOf(2).baseline, kBusyRailRate, kBusyRailRate * 0.01);
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  EXPECT_EQ(findings[0].check, "traffic_degraded");
  EXPECT_NE(findings[0].message.find("is 30% of its baseline 10.0 GB/s"), std::string::npos)
      << findings[0].message;
}

TEST_F(TrafficDetectorTest, EveryRailSlowingDownTogetherIsTheJobNotAFault) {
  WarmUp();
  rails.SetAllRates(0.3 * kBusyRailRate);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kDegraded, minutes(10)), 0);
  EXPECT_NEAR(*StatusOf(0).baseline, 0.3 * kBusyRailRate,
              kBusyRailRate * 0.01);  // it learned the new level
}

TEST_F(TrafficDetectorTest, ARailSwingingBetweenFullAndTenPercentIsDegraded) {
  rails.SetNoise(0.1);
  WarmUp();
  bool high = false;
  std::optional<Duration> took;
  for (Duration t = seconds(1); t <= seconds(60) && !took; t += seconds(1)) {
    rails.SetRate(4, (high = !high) ? kBusyRailRate : 0.1 * kBusyRailRate);
    Tick();
    if (StateOf(4) == TrafficState::kDegraded) took = t;
  }
  ASSERT_TRUE(took.has_value());
  EXPECT_NE(StatusOf(4).reason.find("fluctuates"), std::string::npos) << StatusOf(4).reason;
  EXPECT_EQ(CountIn(TrafficState::kNormal), 7);
}

TEST_F(TrafficDetectorTest, NoisyButHealthyTrafficStaysNormal) {
  rails.SetNoise(0.3);
  RunFor(minutes(1));
  for (Duration t{}; t < minutes(10); t += seconds(1)) {
    Tick();
    ASSERT_EQ(CountIn(TrafficState::kNormal), 8) << "after " << ToSeconds(t) << " s";
  }
  EXPECT_NEAR(*StatusOf(0).baseline, kBusyRailRate, kBusyRailRate * 0.05);
}

TEST_F(TrafficDetectorTest, AllRailsPausingThreeMinutesForACheckpointIsNotACollapse) {
  WarmUp();
  rails.SetAllRates(0);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kCollapsed, minutes(3)), 0);
  EXPECT_EQ(CountIn(TrafficState::kIdle), 8);
  EXPECT_TRUE(detector().Findings().empty());
  rails.SetAllRates(kBusyRailRate);
  Tick();
  Tick();
  EXPECT_EQ(CountIn(TrafficState::kNormal), 8);
}

TEST_F(TrafficDetectorTest, RailsPausingAndResumingAFewSecondsApartAreNotACollapse) {
  WarmUp();
  for (int rail = 0; rail < 8; ++rail) {  // the whole node stops over 2.5 s
    rails.SetRate(rail, 0);
    Tick(milliseconds(300));
  }
  RunFor(minutes(2));
  for (int rail = 0; rail < 8; ++rail) {
    rails.SetRate(rail, kBusyRailRate);
    Tick(milliseconds(300));
  }
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kCollapsed, seconds(30)), 0);
  EXPECT_EQ(CountIn(TrafficState::kNormal), 8);
}

TEST_F(TrafficDetectorTest, AllRailsStoppingLongerThanTheNodeStopWindowCollapse) {
  WarmUp();
  rails.SetAllRates(0);
  RunFor(options.node_stop_window - seconds(2));
  EXPECT_EQ(CountIn(TrafficState::kIdle), 8);
  RunFor(seconds(3));
  EXPECT_EQ(CountIn(TrafficState::kCollapsed), 8);
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 8u);
  EXPECT_NE(findings[0].message.find("node-stop window 10m"), std::string::npos)
      << findings[0].message;
}

TEST_F(TrafficDetectorTest, ANodeSilentLongerThanTheForgetWindowIsIdleAgain) {
  WarmUp();
  rails.SetAllRates(0);
  RunFor(options.forget_after + seconds(10), seconds(10));
  EXPECT_EQ(CountIn(TrafficState::kIdle), 8);
  EXPECT_FALSE(StatusOf(0).baseline.has_value());
  EXPECT_TRUE(detector().Findings().empty());
}

TEST_F(TrafficDetectorTest, NodeStopRuleCanBeDisabled) {
  options.node_stop_window = Duration::zero();
  WarmUp();
  rails.SetAllRates(0);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kCollapsed, minutes(20)), 0);
}

TEST_F(TrafficDetectorTest, ACollapsedRailStaysCollapsedWhenTheJobThenStops) {
  WarmUp();
  rails.SetRate(3, 0);
  ASSERT_TRUE(TimeUntil(3, TrafficState::kCollapsed, seconds(10)));
  RunFor(options.checkpoint_spread);  // the siblings carry on past the checkpoint spread ...
  rails.SetAllRates(0);               // ... then the job hangs on the dead rail
  RunFor(minutes(1));
  EXPECT_EQ(StateOf(3), TrafficState::kCollapsed);
  EXPECT_EQ(CountIn(TrafficState::kIdle), 7);
}

TEST_F(TrafficDetectorTest, CarrierDownIsLinkDownNotCollapsed) {
  WarmUp();
  rails.SetCarrier(5, false);
  rails.SetRate(5, 0);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kCollapsed, seconds(30)), 0);
  EXPECT_EQ(StateOf(5), TrafficState::kLinkDown);
  // The netlink component reports the carrier; that the rail carried traffic a second before is
  // this detector's (traffic_rail_down_test.cc).
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "rail_down_under_job");
  rails.SetCarrier(5, true);
  rails.SetRate(5, kBusyRailRate);
  Tick();
  EXPECT_EQ(StateOf(5), TrafficState::kNormal);
}

TEST_F(TrafficDetectorTest, ARailWhoseLinkReturnsWithoutTrafficCollapses) {
  WarmUp();
  rails.SetCarrier(5, false);
  rails.SetRate(5, 0);
  RunFor(seconds(10));
  rails.SetCarrier(5, true);
  std::optional<Duration> took = TimeUntil(5, TrafficState::kCollapsed, seconds(10));
  ASSERT_TRUE(took.has_value());
  EXPECT_LE(*took, seconds(5));
}

// A port with no byte counters (soft-RoCE, rdma_rxe: no counters/ directory) never has a rate.
// Its link_down ends with the carrier loss: it stayed link_down for good once the carrier and its
// traffic were back.
TEST_F(TrafficDetectorTest, APortWithoutByteCountersLeavesLinkDownWhenItsCarrierReturns) {
  auto tick_without_counters = [&] {
    rails.FailNextRead(5);
    Tick();
  };
  tick_without_counters();
  tick_without_counters();
  EXPECT_EQ(StateOf(5), TrafficState::kIdle);
  rails.SetCarrier(5, false);
  tick_without_counters();
  EXPECT_EQ(StateOf(5), TrafficState::kLinkDown);
  rails.SetCarrier(5, true);
  tick_without_counters();
  EXPECT_EQ(StateOf(5), TrafficState::kIdle);
  EXPECT_FALSE(StatusOf(5).rate.has_value());
}

TEST_F(TrafficDetectorTest, UnknownCarrierIsNotLinkDown) {
  rails.SetCarrier(1, std::nullopt);
  WarmUp();
  EXPECT_EQ(StateOf(1), TrafficState::kNormal);
}

TEST_F(TrafficDetectorTest, ACounterResetGivesNoRateAndNoFalseDrop) {
  WarmUp();
  rails.SetBytes(6, 0, 0);  // device reset: the counters restart from zero
  Tick();
  EXPECT_FALSE(StatusOf(6).rate.has_value());
  EXPECT_EQ(StateOf(6), TrafficState::kNormal);
  Tick();
  ASSERT_TRUE(StatusOf(6).rate.has_value());
  EXPECT_NEAR(*StatusOf(6).rate, kBusyRailRate, 1);
  EXPECT_EQ(SecondsAnyRailIn(TrafficState::kDegraded, seconds(30)) +
                SecondsAnyRailIn(TrafficState::kCollapsed, seconds(30)),
            0);
}

TEST_F(TrafficDetectorTest, FailedReadsAreMissingSamplesNotZeroRates) {
  WarmUp();
  for (int i = 0; i < 5; ++i) {  // longer than collapse_after
    rails.FailNextRead(2);
    Tick();
    EXPECT_FALSE(StatusOf(2).rate.has_value());
    EXPECT_EQ(StateOf(2), TrafficState::kNormal);
  }
  Tick();  // the next good read averages over the whole gap
  ASSERT_TRUE(StatusOf(2).rate.has_value());
  EXPECT_NEAR(*StatusOf(2).rate, kBusyRailRate, kBusyRailRate * 0.01);
}

TEST_F(TrafficDetectorTest, AGapBetweenObservationsGivesTheAverageRate) {
  WarmUp();
  Tick(seconds(20));  // the daemon was stalled
  EXPECT_NEAR(*StatusOf(0).rate, kBusyRailRate, 1);
  EXPECT_EQ(CountIn(TrafficState::kNormal), 8);
}

TEST_F(TrafficDetectorTest, ErrorCountersThatRoseWithTheDropAreInTheFinding) {
  rails.SetHwCounter(3, "local_ack_timeout_err", 0xFFFFFFF0u);  // a Q-counter about to wrap
  WarmUp();
  rails.SetRate(3, 0);
  for (int i = 0; i < 8; ++i) {
    rails.SetHwCounter(3, "local_ack_timeout_err", (0xFFFFFFF0u + 4u * (i + 1)) & 0xFFFFFFFFu);
    Tick();
  }
  ASSERT_EQ(StateOf(3), TrafficState::kCollapsed);
  ASSERT_EQ(StatusOf(3).error_rises.size(), 1u);
  EXPECT_EQ(StatusOf(3).error_rises[0].counter, "local_ack_timeout_err");
  EXPECT_EQ(StatusOf(3).error_rises[0].increase, 32u);  // through the 32-bit wrap
  std::vector<Finding> findings = detector().Findings();
  ASSERT_EQ(findings.size(), 1u);
  // 32 in the 30 s window: 1.07/s.
  EXPECT_NE(findings[0].message.find("local_ack_timeout_err +32 (1.07/s)"), std::string::npos)
      << findings[0].message;
}

TEST_F(TrafficDetectorTest, ARailNeverUsedStaysIdleBesideBusySiblings) {
  rails.SetRate(7, 0);
  RunFor(minutes(15));
  EXPECT_EQ(StateOf(7), TrafficState::kIdle);
  EXPECT_FALSE(StatusOf(7).baseline.has_value());
  EXPECT_EQ(CountIn(TrafficState::kNormal), 7);
}

TEST_F(TrafficDetectorTest, ANewPortStartsIdleAndLearnsItsOwnBaseline) {
  WarmUp();
  rails.AddRail(0);
  Tick();
  EXPECT_EQ(StateOf(8), TrafficState::kIdle);
  RunFor(seconds(30));
  EXPECT_EQ(StateOf(8), TrafficState::kIdle);  // silent, but it never carried traffic
  rails.SetRate(8, kBusyRailRate);
  RunFor(seconds(30));
  EXPECT_EQ(StateOf(8), TrafficState::kNormal);
  EXPECT_TRUE(StatusOf(8).baseline.has_value());
}

TEST_F(TrafficDetectorTest, APortThatVanishesIsForgotten) {
  WarmUp();
  clock.Advance(seconds(1));
  std::vector<PortTrafficSample> samples = rails.Step(seconds(1));
  samples.pop_back();
  detector().Observe(clock.Now(), samples);
  EXPECT_EQ(detector().ports().size(), 7u);
  EXPECT_EQ(detector().Find(SyntheticRails::Key(7)), nullptr);
}

TEST(TrafficDetectorSingleRail, StopsAreIdleUntilTheNodeStopWindow) {
  FakeClock clock;
  TrafficDetector detector{TrafficOptions{}};
  SyntheticRails rail(1, kBusyRailRate);
  auto tick = [&] {
    clock.Advance(seconds(1));
    detector.Observe(clock.Now(), rail.Step(seconds(1)));
    return detector.Find(SyntheticRails::Key(0))->state;
  };
  for (int i = 0; i < 60; ++i) tick();
  rail.SetRate(0, 0);
  for (int i = 0; i < 599; ++i) ASSERT_EQ(tick(), TrafficState::kIdle) << i;
  EXPECT_EQ(tick(), TrafficState::kCollapsed);
  rail.SetRate(0, 0.3 * kBusyRailRate);
  for (int i = 0; i < 60; ++i) tick();
  // A lone rail at 30% cannot be told from a slower job: no siblings, no degradation.
  EXPECT_EQ(tick(), TrafficState::kNormal);
}

TEST(TrafficDetectorStates, LabelsAreTheContractValues) {
  std::vector<std::string> labels;
  for (TrafficState state : kAllTrafficStates) labels.push_back(TrafficStateLabel(state));
  EXPECT_EQ(labels,
            (std::vector<std::string>{"idle", "normal", "degraded", "collapsed", "link_down"}));
}

}  // namespace
}  // namespace rocewatch
