#include "link_quality/link_quality_detector.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

// A 100G link polled every 10 s; each step adds bits the FEC corrected at a chosen BER.
class LinkQualityDetectorTest : public ::testing::Test {
 protected:
  void Step(double ber, uint64_t uncorrectable = 0, uint64_t symbols = 0, bool up = true) {
    clock.Advance(seconds(10));
    sample.at = clock.Now();
    sample.link_up = up;
    *sample.corrected_bits += static_cast<uint64_t>(ber * 100e9 * 10);
    *sample.uncorrectable_blocks += uncorrectable;
    *sample.symbol_errors += symbols;
    detector.Observe({{"ens1f0np0", sample}});
  }
  const LinkQualityStatus& Status() { return detector.netdevs().at("ens1f0np0"); }

  FakeClock clock;
  LinkQualityDetector detector;
  LinkQualitySample sample{clock.Now(), true, 100000, 0, std::nullopt, 0, 0};
};

TEST_F(LinkQualityDetectorTest, HealthyLinkIsOkWithItsBer) {
  for (int i = 0; i < 7; ++i) Step(1e-8);
  EXPECT_EQ(Status().state, LinkQualityState::kOk);
  ASSERT_TRUE(Status().pre_fec_ber);
  EXPECT_NEAR(*Status().pre_fec_ber, 1e-8, 1e-10);
  EXPECT_DOUBLE_EQ(Status().window_seconds, 60);
  EXPECT_TRUE(detector.Findings().empty());
}

TEST_F(LinkQualityDetectorTest, BerDegradingThenFailing) {
  for (int i = 0; i < 7; ++i) Step(1e-8);
  for (int i = 0; i < 7; ++i) Step(5e-5);
  EXPECT_EQ(Status().state, LinkQualityState::kDegraded);
  EXPECT_NE(Status().reason.find("pre-FEC BER 5.0e-05"), std::string::npos) << Status().reason;
  for (int i = 0; i < 7; ++i) Step(3e-4);
  EXPECT_EQ(Status().state, LinkQualityState::kFailing);
  ASSERT_EQ(detector.Findings().size(), 1u);
  EXPECT_EQ(detector.Findings()[0].check, "link_quality_failing");
  EXPECT_EQ(detector.Findings()[0].severity, Severity::kCritical);
}

TEST_F(LinkQualityDetectorTest, NoBerBeforeTheMinimumSpan) {
  Step(1e-3);
  EXPECT_EQ(Status().pre_fec_ber, std::nullopt);  // one sample: no window yet
  Step(1e-3);
  EXPECT_TRUE(Status().pre_fec_ber);  // 10 s >= min span
}

TEST_F(LinkQualityDetectorTest, UncorrectableBlocksDegradeThenFail) {
  for (int i = 0; i < 3; ++i) Step(1e-8);
  Step(1e-8, 3);
  EXPECT_EQ(Status().state, LinkQualityState::kDegraded);
  EXPECT_EQ(Status().uncorrectable_in_window, 3u);
  for (int i = 0; i < 6; ++i) Step(1e-8, 50);  // 5 per second
  EXPECT_EQ(Status().state, LinkQualityState::kFailing);
  for (int i = 0; i < 7; ++i) Step(1e-8);  // the window forgets them
  EXPECT_EQ(Status().state, LinkQualityState::kOk);
}

TEST_F(LinkQualityDetectorTest, SymbolErrorsDegrade) {
  Step(1e-8);
  Step(1e-8, 0, 12);
  EXPECT_EQ(Status().state, LinkQualityState::kDegraded);
  EXPECT_NE(Status().reason.find("12 PHY symbol errors"), std::string::npos);
}

TEST_F(LinkQualityDetectorTest, ReceivedBitCounterIsTheDenominatorWhenPresent) {
  sample.received_bits = 0;
  Step(0);
  // Half the link's capacity carried: 1e-5 of the carried bits corrected.
  clock.Advance(seconds(10));
  sample.at = clock.Now();
  *sample.received_bits += 500'000'000'000;
  *sample.corrected_bits += 5'000'000;
  detector.Observe({{"ens1f0np0", sample}});
  EXPECT_NEAR(*Status().pre_fec_ber, 1e-5, 1e-12);
}

TEST_F(LinkQualityDetectorTest, CounterResetAndLinkDownRestartTheWindow) {
  for (int i = 0; i < 3; ++i) Step(1e-3);
  ASSERT_EQ(Status().state, LinkQualityState::kFailing);
  sample.corrected_bits = 0;  // driver reload
  Step(0);
  EXPECT_EQ(Status().state, LinkQualityState::kOk);
  EXPECT_EQ(Status().pre_fec_ber, std::nullopt);
  Step(1e-3);
  Step(1e-3, 0, 0, /*up=*/false);
  EXPECT_EQ(Status().state, LinkQualityState::kOk);
  EXPECT_EQ(Status().window_seconds, 0);
}

TEST_F(LinkQualityDetectorTest, NetdevsThatDisappearAreForgotten) {
  Step(1e-8);
  detector.Observe({});
  EXPECT_TRUE(detector.netdevs().empty());
}

// After a restart of the daemon: the verdict from before holds until the live counters span a
// whole window, so a failing link is not called ok on a few quiet seconds.
TEST_F(LinkQualityDetectorTest, AResumedVerdictHoldsUntilTheLiveWindowIsFull) {
  detector.Resume({{"ens1f0np0", {LinkQualityState::kFailing, "pre-FEC BER 3.0e-04"}},
                   {"ens9", {LinkQualityState::kOk, ""}}});
  EXPECT_EQ(detector.Verdicts().size(), 1u) << "ok is not a verdict to keep";
  for (int i = 0; i < 5; ++i) {  // 50 s of quiet counters: less than the 60 s window
    Step(1e-8);
    ASSERT_EQ(Status().state, LinkQualityState::kFailing) << "step " << i;
    EXPECT_TRUE(detector.Resumed("ens1f0np0"));
  }
  EXPECT_NE(Status().reason.find("pre-FEC BER 3.0e-04 (judged before the restart"),
            std::string::npos)
      << Status().reason;
  ASSERT_EQ(detector.Findings().size(), 1u);
  EXPECT_EQ(detector.Findings()[0].check, "link_quality_failing");
  EXPECT_EQ(detector.Verdicts().at("ens1f0np0"),
            (ResumedLinkQuality{LinkQualityState::kFailing, "pre-FEC BER 3.0e-04"}))
      << "kept as it was, for the next restart";
  Step(1e-8);
  Step(1e-8);  // the live counters span 60 s: judged on them
  EXPECT_EQ(Status().state, LinkQualityState::kOk);
  EXPECT_FALSE(detector.Resumed("ens1f0np0"));
  EXPECT_TRUE(detector.Verdicts().empty());
}

TEST_F(LinkQualityDetectorTest, AResumedVerdictGivesWayToAWorseLiveOneAndToALinkDown) {
  detector.Resume({{"ens1f0np0", {LinkQualityState::kDegraded, "12 PHY symbol errors"}}});
  Step(1e-8);
  Step(3e-4);  // failing on live counters already
  EXPECT_EQ(Status().state, LinkQualityState::kFailing);
  EXPECT_FALSE(detector.Resumed("ens1f0np0"));

  LinkQualityDetector other;
  other.Resume({{"ens1f0np0", {LinkQualityState::kFailing, "x"}}});
  sample.at = clock.Now();
  sample.link_up = false;
  other.Observe({{"ens1f0np0", sample}});
  EXPECT_EQ(other.netdevs().at("ens1f0np0").state, LinkQualityState::kOk);
  EXPECT_FALSE(other.Resumed("ens1f0np0"));
  other.Resume({{"gone0", {LinkQualityState::kFailing, "x"}}});
  other.Observe({{"ens1f0np0", sample}});
  EXPECT_FALSE(other.Resumed("gone0")) << "a netdev no longer sampled is forgotten";
  EXPECT_TRUE(other.Verdicts().empty());
}

}  // namespace
}  // namespace rocewatch
