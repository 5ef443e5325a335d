// The traffic detector with consumer knowledge: a rail nobody holds is idle however long it is
// quiet; a rail whose consumers are alive collapses as before; unknown consumers keep the old
// rules but a node-wide stop is only a warning (traffic_node_stopped, never traffic_collapsed).

#include <gtest/gtest.h>

#include <memory>

#include "support/fake_clock.h"
#include "support/test_times.h"
#include "traffic/synthetic_rails.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {
namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

class TrafficConsumersTest : public ::testing::Test {
 protected:
  void Tick(Duration dt = seconds(1)) {
    clock.Advance(dt);
    std::vector<PortTrafficSample> samples = rails.Step(dt);
    for (PortTrafficSample& s : samples) {
      auto found = consumers.find(s.key.device);
      s.consumers = found == consumers.end() ? all : found->second;
    }
    detector.Observe(clock.Now(), samples);
  }
  void Train() {
    all = ConsumerKnowledge::kPresent;
    for (int i = 0; i < 60; ++i) Tick();
    ASSERT_EQ(StateOf(0), TrafficState::kNormal);
    ASSERT_EQ(StateOf(1), TrafficState::kNormal);
  }
  TrafficState StateOf(int rail) { return detector.Find(SyntheticRails::Key(rail))->state; }
  // Ticks second by second for `d`; how many seconds any rail was collapsed, and the worst
  // severity of the findings meanwhile.
  int CollapsedSeconds(Duration d, Severity* worst = nullptr) {
    int collapsed = 0;
    for (Duration t{}; t < d; t += seconds(1)) {
      Tick();
      bool any = false;
      for (const auto& [key, status] : detector.ports())
        any = any || status.state == TrafficState::kCollapsed;
      collapsed += any;
      if (worst) {
        std::vector<Finding> findings = detector.Findings();
        if (!findings.empty()) *worst = std::max(*worst, WorstSeverity(findings));
      }
    }
    return collapsed;
  }

  FakeClock clock;
  TrafficDetector detector{TrafficOptions{}};
  SyntheticRails rails{2, kBusyRailRate};
  ConsumerKnowledge all = ConsumerKnowledge::kUnknown;
  std::map<std::string, ConsumerKnowledge> consumers;  // per device, overrides `all`
};

TEST_F(TrafficConsumersTest, IdleNodeBetweenJobsIsQuietForAnHour) {
  Train();
  rails.SetAllRates(0);  // the job ends: its processes exit with the traffic
  all = ConsumerKnowledge::kNone;
  Severity worst = Severity::kInfo;
  EXPECT_EQ(CollapsedSeconds(hours(1), &worst), 0);
  EXPECT_EQ(worst, Severity::kInfo);
  EXPECT_EQ(StateOf(0), TrafficState::kIdle);
  EXPECT_EQ(StateOf(1), TrafficState::kIdle);
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(TrafficConsumersTest, HungJobWithLiveConsumersCollapsesAfterTheNodeStopWindow) {
  Train();
  rails.SetAllRates(0);  // every rank waits on a dead peer; the processes live on
  EXPECT_EQ(CollapsedSeconds(minutes(9)), 0);
  Severity worst = Severity::kInfo;
  EXPECT_GT(CollapsedSeconds(minutes(2), &worst), 0);
  EXPECT_EQ(StateOf(0), TrafficState::kCollapsed);
  EXPECT_TRUE(detector.Find(SyntheticRails::Key(0))->node_wide);
  EXPECT_EQ(worst, Severity::kCritical);
  EXPECT_EQ(detector.Findings()[0].check, "traffic_collapsed");
  EXPECT_NE(detector.Findings()[0].message.find("the job is hung"), std::string::npos);
  // Still hung after the time a finished job would have been forgotten.
  EXPECT_EQ(CollapsedSeconds(hours(1)), 3600);
}

TEST_F(TrafficConsumersTest, UnknownConsumersKeepTheOldRuleAsAWarning) {
  Train();
  all = ConsumerKnowledge::kUnknown;
  rails.SetAllRates(0);
  Severity worst = Severity::kInfo;
  EXPECT_GT(CollapsedSeconds(minutes(11), &worst), 0);
  EXPECT_EQ(worst, Severity::kWarning);
  EXPECT_TRUE(detector.Find(SyntheticRails::Key(1))->node_wide);
  EXPECT_TRUE(IsUnattributedNodeStop(*detector.Find(SyntheticRails::Key(1))));
  EXPECT_EQ(detector.Findings()[0].check, "traffic_node_stopped");
  EXPECT_NE(detector.Findings()[0].message.find("unknown"), std::string::npos);
}

TEST_F(TrafficConsumersTest, ARailWhoseConsumersAreAliveCollapsesWhileItsSiblingRuns) {
  Train();
  rails.SetRate(1, 0);
  EXPECT_GT(CollapsedSeconds(seconds(10)), 0);
  EXPECT_EQ(StateOf(1), TrafficState::kCollapsed);
  EXPECT_FALSE(detector.Find(SyntheticRails::Key(1))->node_wide);
  EXPECT_EQ(WorstSeverity(detector.Findings()), Severity::kCritical);
}

TEST_F(TrafficConsumersTest, ARailNobodyHoldsIsIdleWhileItsSiblingRuns) {
  Train();
  rails.SetRate(1, 0);  // the next job uses one rail only (NCCL_IB_HCA=mlx5_0)
  consumers["mlx5_1"] = ConsumerKnowledge::kNone;
  EXPECT_EQ(CollapsedSeconds(minutes(20)), 0);
  EXPECT_EQ(StateOf(1), TrafficState::kIdle);
  EXPECT_EQ(StateOf(0), TrafficState::kNormal);
}

TEST_F(TrafficConsumersTest, ACollapseEndsWhenItsConsumersExit) {
  Train();
  rails.SetRate(1, 0);
  ASSERT_GT(CollapsedSeconds(seconds(10)), 0);
  consumers["mlx5_1"] = ConsumerKnowledge::kNone;
  Tick();
  EXPECT_EQ(StateOf(1), TrafficState::kIdle);
}

TEST_F(TrafficConsumersTest, TrafficNobodyIsKnownToHoldMakesTheRailUnknown) {
  all = ConsumerKnowledge::kNone;  // a consumer the sources do not see (kernel RDMA, a blind spot)
  for (int i = 0; i < 60; ++i) Tick();
  EXPECT_EQ(detector.Find(SyntheticRails::Key(0))->consumers, ConsumerKnowledge::kUnknown);
  rails.SetAllRates(0);
  Severity worst = Severity::kInfo;
  EXPECT_GT(CollapsedSeconds(minutes(11), &worst), 0);  // not silently idle
  EXPECT_EQ(worst, Severity::kWarning);                 // never a critical collapse
  for (const Finding& f : detector.Findings()) EXPECT_EQ(f.check, "traffic_node_stopped");
  all = ConsumerKnowledge::kPresent;  // the scan finds the consumer
  Tick();
  EXPECT_EQ(detector.Find(SyntheticRails::Key(0))->consumers, ConsumerKnowledge::kPresent);
}

}  // namespace
}  // namespace rocewatch
