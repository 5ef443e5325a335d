// Load: 50 concurrent scrapers, back to back (10 s timeout, as Prometheus), for 30 s against
// `rocewatch run` on a 16-rail node with full 255-slot GID tables. No scrape fails, and the poll
// cadence holds: the poll count over the window and every gap between poll starts (derived from
// rocewatch_last_poll_timestamp_seconds and rocewatch_poll_duration_seconds, sampled every 50 ms)
// stay within 10% of the 1 s interval. ctest label `load` (make test; not the sanitizer runs).
// The figures are printed (docs/reliability.md quotes them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/scrape_storm.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr int kScrapers = 50;
constexpr auto kWindow = std::chrono::seconds(30);
constexpr double kInterval = 1.0;
// Prometheus's default scrape_timeout: a scrape slower than this is a failed scrape.
constexpr auto kScrapeTimeout = std::chrono::seconds(10);

// One observation of the poll counters, from one scrape.
struct PollSample {
  double last_end = 0;  // rocewatch_last_poll_timestamp_seconds: when the last poll ended
  double count = 0;     // rocewatch_poll_duration_seconds_count
  double sum = 0;       // rocewatch_poll_duration_seconds_sum
};

TEST(ScrapeLoadTest, FiftyScrapersForThirtySecondsFailNothingAndKeepThePollCadence) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(16)).ok());
  auto daemon = DaemonProcess::Start(
      {"--host-root", dir.path(), "--state-file", "", "--interval", "1s", "--log-level", "warn"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  auto sample = [&]() -> std::optional<PollSample> {
    auto metrics = HttpGet("127.0.0.1", (*daemon)->port(), "/metrics", kScrapeTimeout);
    if (!metrics.ok()) return std::nullopt;
    auto end = FindSample(metrics->body, "rocewatch_last_poll_timestamp_seconds");
    auto count = FindSample(metrics->body, "rocewatch_poll_duration_seconds_count");
    auto sum = FindSample(metrics->body, "rocewatch_poll_duration_seconds_sum");
    if (!end || !count || !sum) return std::nullopt;
    return PollSample{*end, *count, *sum};
  };
  std::optional<PollSample> before = sample();
  ASSERT_TRUE(before.has_value());

  // Back to back: each scraper sends its next request as soon as it has the previous answer.
  ScrapeStorm storm((*daemon)->port(), kScrapers, std::chrono::milliseconds(0), kScrapeTimeout);
  std::vector<PollSample> polls;  // one per poll seen, in order
  const auto begin = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - begin < kWindow) {
    std::optional<PollSample> now = sample();
    if (now && (polls.empty() || now->count != polls.back().count)) polls.push_back(*now);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  storm.Stop();
  std::optional<PollSample> after = sample();
  ASSERT_TRUE(after.has_value());

  EXPECT_EQ(storm.failed(), 0u) << ::testing::PrintToString(storm.failures());
  // The cadence over the window: polls per second.
  const double polls_per_second = (after->count - before->count) / elapsed;
  EXPECT_NEAR(polls_per_second, 1.0 / kInterval, 0.1 / kInterval);
  // The cadence poll by poll: when each poll started (its end minus its own duration, known when
  // exactly one poll happened between two samples), every gap within 10% of the interval. The
  // gaps between poll *ends* also carry the poll's duration, which CPU contention stretches:
  // reported, not asserted.
  ASSERT_GE(polls.size(), 20u);
  double worst_start = 0, worst_end = 0, slowest_poll = 0;
  int start_gaps = 0;
  for (size_t i = 1; i < polls.size(); ++i) {
    const PollSample& a = polls[i - 1];
    const PollSample& b = polls[i];
    worst_end = std::max(worst_end, std::abs(b.last_end - a.last_end - kInterval) / kInterval);
    if (b.count - a.count != 1 || i < 2 || a.count - polls[i - 2].count != 1) continue;
    const double duration_a = a.sum - polls[i - 2].sum;
    const double duration_b = b.sum - a.sum;
    slowest_poll = std::max({slowest_poll, duration_a, duration_b});
    const double start_gap = (b.last_end - duration_b) - (a.last_end - duration_a);
    worst_start = std::max(worst_start, std::abs(start_gap - kInterval) / kInterval);
    EXPECT_NEAR(start_gap, kInterval, 0.1 * kInterval) << "between polls " << i - 1 << ", " << i;
    ++start_gaps;
  }
  EXPECT_GE(start_gaps, 10);

  const double scrapes_per_second = static_cast<double>(storm.succeeded()) / elapsed;
  std::printf(
      "load: %d scrapers, %.1f s: %llu scrapes ok (%.0f/s), %llu failed, slowest scrape %.3f s; "
      "%.3f polls/s; %d poll-start gaps, worst deviation %.1f%%; poll-end gaps worst %.1f%%; "
      "slowest poll %.3f s\n",
      kScrapers, elapsed, static_cast<unsigned long long>(storm.succeeded()), scrapes_per_second,
      static_cast<unsigned long long>(storm.failed()), storm.max_seconds(), polls_per_second,
      start_gaps, 100 * worst_start, 100 * worst_end, slowest_poll);
  RecordProperty("scrapes_ok", std::to_string(storm.succeeded()));
  RecordProperty("worst_start_gap_deviation_percent", std::to_string(100 * worst_start));
  EXPECT_EQ((*daemon)->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
