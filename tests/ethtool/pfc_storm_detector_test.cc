#include "link_quality/pfc_storm_detector.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class PfcStormDetectorTest : public ::testing::Test {
 protected:
  // One 5 s poll in which priority 3 was paused `tx` / `rx` of the time.
  void Step(double tx, double rx = 0) {
    clock.Advance(seconds(5));
    sample.at = clock.Now();
    sample.pause_microseconds[{3, PauseDirection::kTx}] += static_cast<uint64_t>(tx * 5e6);
    sample.pause_microseconds[{3, PauseDirection::kRx}] += static_cast<uint64_t>(rx * 5e6);
    detector.Observe({{"ens1f0np0", sample}});
  }
  const PfcPriorityStatus& Tx() {
    return detector.priorities().at({"ens1f0np0", 3, PauseDirection::kTx});
  }
  const PfcPriorityStatus& Rx() {
    return detector.priorities().at({"ens1f0np0", 3, PauseDirection::kRx});
  }

  FakeClock clock;
  PfcStormDetector detector;
  PfcSample sample{
      clock.Now(), {{{3, PauseDirection::kTx}, 0}, {{3, PauseDirection::kRx}, 0}}, 0, 0};
};

TEST_F(PfcStormDetectorTest, OccasionalPauseIsNoStorm) {
  for (int i = 0; i < 6; ++i) Step(0.05, 0.1);
  EXPECT_FALSE(Tx().storm);
  EXPECT_NEAR(*Tx().paused_fraction, 0.05, 1e-6);
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(PfcStormDetectorTest, HostSendingPauseMostOfTheWindowIsATxStorm) {
  for (int i = 0; i < 3; ++i) Step(0);
  for (int i = 0; i < 2; ++i) Step(0.9);
  EXPECT_TRUE(Tx().storm);
  EXPECT_FALSE(Rx().storm);
  std::vector<Finding> findings = detector.Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "pfc_storm_tx");
  EXPECT_NE(findings[0].message.find("this host sent pause 90%"), std::string::npos)
      << findings[0].message;
}

TEST_F(PfcStormDetectorTest, FabricPushingBackIsAnRxStorm) {
  for (int i = 0; i < 3; ++i) Step(0, 0.7);
  EXPECT_TRUE(Rx().storm);
  EXPECT_EQ(detector.Findings().at(0).check, "pfc_storm_rx");
}

TEST_F(PfcStormDetectorTest, StormEndsOnlyBelowTheClearFraction) {
  for (int i = 0; i < 3; ++i) Step(0.9);
  ASSERT_TRUE(Tx().storm);
  for (int i = 0; i < 3; ++i) Step(0.3);  // between clear (0.2) and storm (0.5): holds
  EXPECT_TRUE(Tx().storm);
  for (int i = 0; i < 3; ++i) Step(0.0);
  EXPECT_FALSE(Tx().storm);
}

TEST_F(PfcStormDetectorTest, DriverStormEventsAreFindingsForTheEventWindow) {
  Step(0);
  *sample.storm_error_events += 1;
  Step(0);
  std::vector<Finding> findings = detector.Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "pfc_storm_driver");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);  // the NIC's prevention acted
  for (int i = 0; i < 61; ++i) Step(0);                 // five minutes later
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(PfcStormDetectorTest, CounterResetClearsTheStorm) {
  for (int i = 0; i < 3; ++i) Step(0.9);
  ASSERT_TRUE(Tx().storm);
  sample.pause_microseconds[{3, PauseDirection::kTx}] = 0;
  Step(0);
  EXPECT_FALSE(Tx().storm);
}

// After a restart of the daemon: a storm holds until a live fraction is measured and is below
// the clear fraction (the storm's own rule for ending).
TEST_F(PfcStormDetectorTest, AResumedStormEndsOnlyByItsOwnRule) {
  const PfcKey tx{"ens1f0np0", 3, PauseDirection::kTx};
  detector.Resume({{tx}, {}});
  Step(0);  // one sample: no fraction yet
  EXPECT_TRUE(Tx().storm);
  ASSERT_EQ(detector.Findings().size(), 1u);
  EXPECT_EQ(detector.Storms().storms, std::set<PfcKey>{tx});
  Step(0.3);  // 30%: between clear (20%) and storm (50%): still a storm
  EXPECT_TRUE(Tx().storm);
  Step(0);  // 15% over the 10 s window: below the clear fraction
  EXPECT_FALSE(Tx().storm);
  EXPECT_TRUE(detector.Storms().storms.empty());
}

TEST_F(PfcStormDetectorTest, ResumedDriverStormEventsHoldForTheEventWindow) {
  sample.storm_warning_events = 0;
  sample.storm_error_events = 0;
  detector.Resume({{}, {{"ens1f0np0", {0, 2}}, {"gone0", {1, 0}}}});
  Step(0);
  EXPECT_EQ(detector.driver_storms().at("ens1f0np0").error_events_in_window, 2u);
  EXPECT_EQ(detector.driver_storms().count("gone0"), 0u) << "not sampled: forgotten";
  std::vector<Finding> findings = detector.Findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "pfc_storm_driver");
  for (int i = 0; i < 58; ++i) Step(0);  // 4 min 50 s of live counters
  EXPECT_EQ(detector.driver_storms().at("ens1f0np0").error_events_in_window, 2u);
  Step(0);
  Step(0);  // the live counters span the 5-minute event window: no event in it
  EXPECT_EQ(detector.driver_storms().at("ens1f0np0").error_events_in_window, 0u);
  EXPECT_TRUE(detector.Findings().empty());
  EXPECT_TRUE(detector.Storms().driver.empty());
}

}  // namespace
}  // namespace rocewatch
