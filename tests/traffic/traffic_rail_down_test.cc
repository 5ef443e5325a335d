// A rail whose link goes down under a job (docs/detection.md, "A link lost under a job"): its
// state is link_down, never collapsed, and the detector adds the critical rail_down_under_job
// when a job held the rail: its consumers alive, or traffic on it shortly before the link went
// down while its consumers were not known to be gone.
#include <gtest/gtest.h>

#include <map>
#include <memory>
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

// Four rails of one job, trained for a minute; `consumers` is what the scan says of every device.
class TrafficRailDownTest : public ::testing::Test {
 protected:
  void Train(ConsumerKnowledge knowledge) {
    consumers = knowledge;
    RunFor(minutes(1));
    ASSERT_EQ(Status(1).state, TrafficState::kNormal);
  }
  void RunFor(Duration d) {
    for (Duration t{}; t < d; t += seconds(1)) {
      clock.Advance(seconds(1));
      std::vector<PortTrafficSample> samples = rails.Step(seconds(1));
      for (PortTrafficSample& sample : samples) sample.consumers = consumers;
      detector.Observe(clock.Now(), samples);
    }
  }
  void LinkDown(int rail) {
    rails.SetCarrier(rail, false);
    rails.SetRate(rail, 0);
  }
  const PortTrafficStatus& Status(int rail) const {
    return *detector.Find(SyntheticRails::Key(rail));
  }
  std::vector<Finding> FindingsNamed(const std::string& check) const {
    std::vector<Finding> named;
    for (const Finding& f : detector.Findings())
      if (f.check == check) named.push_back(f);
    return named;
  }

  FakeClock clock;
  SyntheticRails rails{4, kBusyRailRate};
  TrafficDetector detector{TrafficOptions{}};
  ConsumerKnowledge consumers = ConsumerKnowledge::kUnknown;
};

TEST_F(TrafficRailDownTest, ALinkLostWhileTheJobHoldsTheRailIsCriticalNotCollapsed) {
  Train(ConsumerKnowledge::kPresent);
  LinkDown(1);
  RunFor(minutes(3));  // the peer is down for 3 minutes; the job holds every rail meanwhile
  EXPECT_EQ(Status(1).state, TrafficState::kLinkDown);
  EXPECT_TRUE(Status(1).down_under_job);
  std::vector<Finding> findings = FindingsNamed("rail_down_under_job");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].subject, "mlx5_1/1");
  EXPECT_EQ(findings[0].message.rfind("Link down under a job for 179s: the link went down while "
                                      "processes held the rail; ",
                                      0),
            0u)
      << findings[0].message;
  EXPECT_TRUE(FindingsNamed("traffic_collapsed").empty());
}

TEST_F(TrafficRailDownTest, TrafficJustBeforeTheLinkWentDownProvesAJobWhenHoldersAreUnknown) {
  Train(ConsumerKnowledge::kUnknown);
  LinkDown(2);
  RunFor(seconds(90));
  EXPECT_TRUE(Status(2).down_under_job);
  std::vector<Finding> findings = FindingsNamed("rail_down_under_job");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("the rail had carried traffic 1s before (who holds it is "
                                     "unknown)"),
            std::string::npos)
      << findings[0].message;
}

TEST_F(TrafficRailDownTest, ItHoldsUntilTheLinkIsBackAlsoAfterTheJobExits) {
  Train(ConsumerKnowledge::kPresent);
  LinkDown(1);
  RunFor(seconds(30));
  consumers = ConsumerKnowledge::kNone;  // the job failed on the lost rail and exited
  rails.SetAllRates(0);
  RunFor(minutes(2));
  EXPECT_TRUE(Status(1).down_under_job);
  EXPECT_EQ(FindingsNamed("rail_down_under_job").size(), 1u);
  rails.SetCarrier(1, true);
  RunFor(seconds(2));
  EXPECT_FALSE(Status(1).down_under_job);
  EXPECT_EQ(Status(1).state, TrafficState::kIdle);
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(TrafficRailDownTest, ALinkLostOnARailNobodyHoldsIsLinkDownAlone) {
  Train(ConsumerKnowledge::kPresent);
  rails.SetAllRates(0);  // the job ends; the node is drained
  consumers = ConsumerKnowledge::kNone;
  RunFor(seconds(30));
  LinkDown(1);  // maintenance: within 5 minutes of the traffic, but nobody holds the rail
  RunFor(minutes(2));
  EXPECT_EQ(Status(1).state, TrafficState::kLinkDown);
  EXPECT_FALSE(Status(1).down_under_job);
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(TrafficRailDownTest, TrafficLongerAgoThanTheInUseWindowProvesNothing) {
  Train(ConsumerKnowledge::kUnknown);
  rails.SetAllRates(0);
  RunFor(kRailInUseWindow + seconds(10));
  LinkDown(1);
  RunFor(minutes(2));
  EXPECT_FALSE(Status(1).down_under_job);
  EXPECT_TRUE(FindingsNamed("rail_down_under_job").empty());
}

TEST_F(TrafficRailDownTest, AJobStartingOnARailWhoseLinkIsDownIsUnderAJob) {
  Train(ConsumerKnowledge::kUnknown);
  rails.SetAllRates(0);  // the last job ended long ago
  RunFor(kRailInUseWindow + seconds(10));
  LinkDown(3);
  RunFor(seconds(30));
  ASSERT_FALSE(Status(3).down_under_job);
  consumers = ConsumerKnowledge::kPresent;  // the next job opens every device
  RunFor(seconds(5));
  EXPECT_TRUE(Status(3).down_under_job);
  std::vector<Finding> findings = FindingsNamed("rail_down_under_job");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("the link is down while processes hold the rail"),
            std::string::npos)
      << findings[0].message;
}

}  // namespace
}  // namespace rocewatch
