// The small statistics under the detector: rolling median, rate jitter, error counter window,
// rate formatting, option validation.
#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "traffic/error_counter_window.h"
#include "traffic/format_rate.h"
#include "traffic/rate_window.h"
#include "traffic/rolling_median.h"
#include "traffic/traffic_options.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

TEST(RollingMedian, KeepsTheLastNValues) {
  RollingMedian median(3);
  EXPECT_FALSE(median.Median());
  median.Add(10);
  EXPECT_EQ(*median.Median(), 10);
  median.Add(30);
  EXPECT_EQ(*median.Median(), 20);  // even count: mean of the middle two
  median.Add(1000);
  EXPECT_EQ(*median.Median(), 30);  // a spike does not move it
  median.Add(20);                   // 10 falls out
  EXPECT_EQ(median.size(), 3u);
  EXPECT_EQ(*median.Median(), 30);
}

TEST(RateWindow, AStepIsNotJitterButASwingIs) {
  FakeClock clock;
  RateWindow step(seconds(30));
  RateWindow swing(seconds(30));
  for (int i = 0; i < 30; ++i) {
    clock.Advance(seconds(1));
    step.Add(clock.Now(), i < 15 ? 100 : 30);
    swing.Add(clock.Now(), i % 2 ? 100 : 10);
  }
  EXPECT_LT(*step.RelativeJitter(10), 0.05);
  EXPECT_GT(*swing.RelativeJitter(10), 1.5);
}

TEST(RateWindow, DropsOldSamplesAndNeedsEnoughOfThem) {
  FakeClock clock;
  RateWindow window(seconds(10));
  for (int i = 0; i < 25; ++i) {
    clock.Advance(seconds(1));
    window.Add(clock.Now(), 5);
  }
  EXPECT_EQ(window.size(), 10u);
  EXPECT_EQ(*window.RelativeJitter(10), 0);
  EXPECT_FALSE(window.RelativeJitter(11));
  RateWindow zeros(seconds(10));
  for (int i = 0; i < 10; ++i) {
    clock.Advance(seconds(1));
    zeros.Add(clock.Now(), 0);
  }
  EXPECT_FALSE(zeros.RelativeJitter(2));  // no traffic: no relative jitter
}

TEST(ErrorCounterWindow, ReportsOnlyTheErrorCountersThatRoseWithinTheWindow) {
  FakeClock clock;
  ErrorCounterWindow window(seconds(30));
  std::map<std::string, uint64_t> hw{{"packet_seq_err", 5}, {"rx_write_requests", 1}};
  window.Observe(clock.Now(), hw);
  for (int i = 0; i < 10; ++i) {
    clock.Advance(seconds(1));
    hw["packet_seq_err"] += 2;
    hw["rx_write_requests"] += 1000;  // not an error counter
    window.Observe(clock.Now(), hw);
  }
  std::vector<ErrorCounterRise> rises = window.Rises();
  ASSERT_EQ(rises.size(), 1u);
  EXPECT_EQ(rises[0].counter, "packet_seq_err");
  EXPECT_EQ(rises[0].increase, 20u);
  EXPECT_DOUBLE_EQ(rises[0].per_second, 2.0);
  for (int i = 0; i < 31; ++i) {  // quiet for longer than the window
    clock.Advance(seconds(1));
    window.Observe(clock.Now(), hw);
  }
  EXPECT_TRUE(window.Rises().empty());
}

TEST(ErrorCounterWindow, CongestionCountersAre64BitSoADecreaseIsAReset) {
  FakeClock clock;
  ErrorCounterWindow window(seconds(30));
  window.Observe(clock.Now(), {{"np_cnp_sent", 0xFFFFFF00u}, {"packet_seq_err", 0xFFFFFF00u}});
  clock.Advance(seconds(1));
  window.Observe(clock.Now(), {{"np_cnp_sent", 0x10}, {"packet_seq_err", 0x10}});
  std::vector<ErrorCounterRise> rises = window.Rises();
  ASSERT_EQ(rises.size(), 1u);  // the 32-bit Q-counter wrapped; the 64-bit one was reset
  EXPECT_EQ(rises[0].counter, "packet_seq_err");
  EXPECT_EQ(rises[0].increase, 0x110u);
}

TEST(ErrorCounterWindow, AResetIsNotARise) {
  FakeClock clock;
  ErrorCounterWindow window(seconds(30));
  window.Observe(clock.Now(), {{"out_of_sequence", 1'000'000}});
  clock.Advance(seconds(1));
  window.Observe(clock.Now(), {{"out_of_sequence", 3}});
  clock.Advance(seconds(1));
  window.Observe(clock.Now(), {});  // read failed
  EXPECT_TRUE(window.Rises().empty());
}

TEST(FormatRate, UsesSiPrefixesAndThreeDigits) {
  EXPECT_EQ(FormatRate(0), "0 B/s");
  EXPECT_EQ(FormatRate(950), "950 B/s");
  EXPECT_EQ(FormatRate(1500), "1.50 kB/s");
  EXPECT_EQ(FormatRate(12.34e6), "12.3 MB/s");
  EXPECT_EQ(FormatRate(10e9), "10.0 GB/s");
  EXPECT_EQ(FormatRate(999.6e9), "1.00 TB/s");
  EXPECT_EQ(FormatRate(-5), "0 B/s");
}

TEST(TrafficOptions, DefaultsAreValid) { EXPECT_TRUE(TrafficOptions{}.Validate().ok()); }

TEST(TrafficOptions, RejectsNonsenseNamingTheFlag) {
  struct Case {
    void (*mutate)(TrafficOptions&);
    const char* flag;
  };
  const Case cases[] = {
      {[](TrafficOptions& o) { o.active_rate = 0; }, "--traffic-active-rate"},
      {[](TrafficOptions& o) { o.stop_fraction = 1.5; }, "--traffic-stop-fraction"},
      {[](TrafficOptions& o) { o.degraded_fraction = 0; }, "--traffic-degraded-fraction"},
      {[](TrafficOptions& o) { o.stop_fraction = 0.6; }, "--traffic-stop-fraction"},
      {[](TrafficOptions& o) { o.sibling_fraction = 1; }, "--traffic-sibling-fraction"},
      {[](TrafficOptions& o) { o.collapse_after = Duration::zero(); }, "--traffic-collapse-after"},
      {[](TrafficOptions& o) { o.degraded_after = -seconds(1); }, "--traffic-degraded-after"},
      {[](TrafficOptions& o) { o.forget_after = seconds(60); }, "--traffic-forget-after"},
      {[](TrafficOptions& o) { o.checkpoint_spread = -seconds(1); }, "--traffic-checkpoint-spread"},
      {[](TrafficOptions& o) { o.checkpoint_spread = seconds(2); }, "--traffic-checkpoint-spread"},
      {[](TrafficOptions& o) { o.checkpoint_spread = o.node_stop_window; },
       "--traffic-checkpoint-spread"},
      {[](TrafficOptions& o) { o.fluctuation_vs_siblings = 0.5; },
       "--traffic-fluctuation-vs-siblings"},
      {[](TrafficOptions& o) { o.baseline_samples = 2; }, "--traffic-baseline-samples"},
      {[](TrafficOptions& o) { o.baseline_samples = 10'000'000; }, "--traffic-baseline-samples"},
  };
  for (const Case& c : cases) {
    TrafficOptions options;
    c.mutate(options);
    Status status = options.Validate();
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.flag;
    EXPECT_NE(status.message().find(c.flag), std::string::npos) << status.message();
  }
  TrafficOptions no_node_rules;
  no_node_rules.node_stop_window = Duration::zero();
  no_node_rules.forget_after = Duration::zero();
  EXPECT_TRUE(no_node_rules.Validate().ok());
}

}  // namespace
}  // namespace rocewatch
