#include "netdev_health/link_flap_detector.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

class LinkFlapDetectorTest : public ::testing::Test {
 protected:
  // Carrier down, `down_for`, carrier up; the kernel counter moves by two.
  void Flap(Duration down_for) {
    changes_ += 1;
    detector_.Observe("rnic0", false, changes_, clock_.Now());
    clock_.Advance(down_for);
    changes_ += 1;
    detector_.Observe("rnic0", true, changes_, clock_.Now());
  }
  std::vector<std::string> Checks() {
    std::vector<Finding> findings;
    detector_.AppendFindings(clock_.Now(), findings);
    std::vector<std::string> out;
    for (const auto& f : findings) out.push_back(f.check);
    return out;
  }
  FakeClock clock_;
  LinkFlapDetector detector_;
  uint64_t changes_ = 1;
};

TEST_F(LinkFlapDetectorTest, OneEpisodeIsOneFlapWithItsDuration) {
  detector_.Observe("rnic0", true, changes_, clock_.Now());
  Flap(milliseconds(2300));
  const auto* n = detector_.Find("rnic0");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->flaps_total, 1u);
  EXPECT_EQ(n->inferred_total, 0u);
  EXPECT_EQ(n->last_duration, milliseconds(2300));
  EXPECT_FALSE(detector_.IsFlapping("rnic0", clock_.Now()));
  EXPECT_EQ(Checks(), std::vector<std::string>{"link_flap"});
}

TEST_F(LinkFlapDetectorTest, ACarrierLossIsAFlapWhenItStartsEvenIfTheLinkStaysDown) {
  detector_.Observe("rnic0", true, changes_, clock_.Now());
  EXPECT_EQ(detector_.Observe("rnic0", false, changes_ + 1, clock_.Now()), 1);
  clock_.Advance(minutes(5));
  EXPECT_EQ(detector_.Observe("rnic0", false, changes_ + 1, clock_.Now()), 0);
  EXPECT_EQ(detector_.Find("rnic0")->flaps_total, 1u);
  EXPECT_EQ(Checks(), (std::vector<std::string>{"link_flap", "netdev_carrier_down"}));
}

TEST_F(LinkFlapDetectorTest, ACarrierAlreadyDownAtTheFirstObservationIsNoFlap) {
  detector_.Observe("rnic0", false, changes_, clock_.Now());
  EXPECT_EQ(detector_.Find("rnic0")->flaps_total, 0u);
  EXPECT_EQ(Checks(), std::vector<std::string>{"netdev_carrier_down"});
}

TEST_F(LinkFlapDetectorTest, ThreeFlapsInTenMinutesIsFlappingUntilTheyAge) {
  detector_.Observe("rnic0", true, changes_, clock_.Now());
  for (int i = 0; i < 3; ++i) {
    Flap(seconds(1));
    clock_.Advance(minutes(2));
  }
  EXPECT_TRUE(detector_.IsFlapping("rnic0", clock_.Now()));
  EXPECT_EQ(Checks(), std::vector<std::string>{"link_flapping"});
  clock_.Advance(minutes(5));  // the first flap leaves the window
  EXPECT_FALSE(detector_.IsFlapping("rnic0", clock_.Now()));
  EXPECT_EQ(detector_.FlapsInWindow("rnic0", clock_.Now()), 2);
}

TEST_F(LinkFlapDetectorTest, FlapsOnlyTheKernelCounterSawAreInferred) {
  detector_.Observe("rnic0", true, 10, clock_.Now());
  // Two coalesced sub-second flaps: carrier is up at both observations, the counter moved by 4.
  EXPECT_EQ(detector_.Observe("rnic0", true, 14, clock_.Now()), 2);
  EXPECT_EQ(detector_.Find("rnic0")->flaps_total, 2u);
  EXPECT_EQ(detector_.Find("rnic0")->inferred_total, 2u);
  // A seen transition explains one change: down with +3 is one missed flap plus this one, which
  // counts as it starts.
  EXPECT_EQ(detector_.Observe("rnic0", false, 17, clock_.Now()), 2);
  EXPECT_EQ(detector_.Find("rnic0")->flaps_total, 4u);
}

TEST_F(LinkFlapDetectorTest, CounterGoingBackIsANewBaselineNotAFlap) {
  detector_.Observe("rnic0", true, 40, clock_.Now());
  EXPECT_EQ(detector_.Observe("rnic0", true, 2, clock_.Now()), 0);  // netdev re-created
  EXPECT_EQ(detector_.Observe("rnic0", true, 2, clock_.Now()), 0);
  EXPECT_EQ(detector_.Find("rnic0")->flaps_total, 0u);
}

TEST_F(LinkFlapDetectorTest, ThresholdAndWindowAreConfigurable) {
  LinkFlapDetector strict({.flapping_window = seconds(30), .flapping_threshold = 1});
  strict.Observe("rnic0", true, 1, clock_.Now());
  strict.Observe("rnic0", false, 2, clock_.Now());
  EXPECT_TRUE(strict.IsFlapping("rnic0", clock_.Now()));
  EXPECT_FALSE(strict.IsFlapping("rnic0", clock_.Now() + seconds(31)));
}

}  // namespace
}  // namespace rocewatch
