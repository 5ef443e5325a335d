// A detector started from another's view (the running daemon's, for `diagnose --watch`): its
// first rates and states agree with the daemon's instead of learning from zero.
#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/test_times.h"
#include "traffic/synthetic_rails.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class TrafficResumeTest : public ::testing::Test {
 protected:
  TrafficResumeTest() : rails_(4, kBusyRailRate), daemon_(TrafficOptions{}) {
    options_.collapse_after = seconds(5);
    daemon_ = TrafficDetector(options_);
    for (int t = 0; t < 60; ++t) Tick();
    rails_.SetRate(2, 0);  // rail 2 stops while its siblings carry on
    for (int t = 0; t < 10; ++t) Tick();
  }
  void Tick() {
    clock_.Advance(seconds(1));
    last_ = rails_.Step(seconds(1));
    daemon_.Observe(clock_.Now(), last_);
  }
  // What the daemon serves (its baseline and state) plus its last counters, as diagnose reads
  // them from its state (GET /api/v1/state).
  std::map<PortKey, PortTrafficResume> DaemonView() const {
    std::map<PortKey, PortTrafficResume> view;
    for (const PortTrafficSample& s : last_) {
      const PortTrafficStatus& status = *daemon_.Find(s.key);
      view[s.key] = {status.baseline,  status.state,    status.node_wide,
                     s.transmit_bytes, s.receive_bytes, clock_.Now()};
    }
    return view;
  }

  FakeClock clock_;
  SyntheticRails rails_;
  TrafficOptions options_;
  TrafficDetector daemon_;
  std::vector<PortTrafficSample> last_;
};

TEST_F(TrafficResumeTest, TheFirstObservationAgreesWithTheDaemon) {
  ASSERT_EQ(daemon_.Find(SyntheticRails::Key(2))->state, TrafficState::kCollapsed);
  TrafficDetector watch(options_);
  for (const auto& [key, from] : DaemonView()) watch.Resume(key, from);
  clock_.Advance(seconds(1));
  const std::vector<PortTrafficSample> now = rails_.Step(seconds(1));
  watch.Observe(clock_.Now(), now);
  daemon_.Observe(clock_.Now(), now);
  for (int rail = 0; rail < rails_.size(); ++rail) {
    const PortTrafficStatus& mine = *watch.Find(SyntheticRails::Key(rail));
    const PortTrafficStatus& theirs = *daemon_.Find(SyntheticRails::Key(rail));
    EXPECT_EQ(mine.state, theirs.state) << rail;
    ASSERT_TRUE(mine.rate.has_value()) << rail;  // measured from the daemon's counters
    EXPECT_DOUBLE_EQ(*mine.rate, *theirs.rate) << rail;
    ASSERT_TRUE(mine.baseline.has_value()) << rail;
    EXPECT_DOUBLE_EQ(*mine.baseline, *theirs.baseline) << rail;
  }
  ASSERT_EQ(watch.Findings().size(), 1u);
  EXPECT_EQ(watch.Findings()[0].check, "traffic_collapsed");
  EXPECT_EQ(watch.Findings()[0].subject, "mlx5_2/1");
}

TEST_F(TrafficResumeTest, WithoutTheDaemonsViewTheFirstObservationKnowsNothing) {
  TrafficDetector fresh(options_);
  clock_.Advance(seconds(1));
  fresh.Observe(clock_.Now(), rails_.Step(seconds(1)));
  EXPECT_FALSE(fresh.Find(SyntheticRails::Key(0))->rate.has_value());
  EXPECT_EQ(fresh.Find(SyntheticRails::Key(2))->state, TrafficState::kIdle);
  EXPECT_TRUE(fresh.Findings().empty());
}

TEST_F(TrafficResumeTest, AResumedCollapseEndsWhenTheRailCarriesTrafficAgain) {
  TrafficDetector watch(options_);
  for (const auto& [key, from] : DaemonView()) watch.Resume(key, from);
  rails_.SetRate(2, kBusyRailRate);
  clock_.Advance(seconds(1));
  watch.Observe(clock_.Now(), rails_.Step(seconds(1)));
  EXPECT_EQ(watch.Find(SyntheticRails::Key(2))->state, TrafficState::kNormal);
}

}  // namespace
}  // namespace rocewatch
