// Load: 50 concurrent scrapers, back to back (10 s timeout, as Prometheus), for 30 s against
// `rocewatch run` on a 16-rail node with full 255-slot GID tables. No scrape fails, and the poll
// cadence holds: every gap between two polls (rocewatch_last_poll_timestamp_seconds, sampled) and
// the poll count over the window stay within 10% of the 1 s interval. ctest label `load` (make
// test; not the sanitizer runs). The figures are printed and recorded (docs/reliability.md quotes
// them).
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

TEST(ScrapeLoadTest, FiftyScrapersForThirtySecondsFailNothingAndKeepThePollCadence) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(16)).ok());
  auto daemon = DaemonProcess::Start(
      {"--host-root", dir.path(), "--state-file", "", "--interval", "1s", "--log-level", "warn"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  auto sample = [&](const char* series) -> std::optional<double> {
    auto metrics = HttpGet("127.0.0.1", (*daemon)->port(), "/metrics", kScrapeTimeout);
    return metrics.ok() ? FindSample(metrics->body, series) : std::nullopt;
  };
  // Start on a poll boundary so that the window holds whole intervals.
  std::optional<double> first = sample("rocewatch_last_poll_timestamp_seconds");
  ASSERT_TRUE(first.has_value());
  std::vector<double> polls;  // distinct last-poll timestamps, in order
  const double count_before = sample("rocewatch_poll_duration_seconds_count").value_or(0);

  // Back to back: each scraper sends its next request as soon as it has the previous answer.
  ScrapeStorm storm((*daemon)->port(), kScrapers, std::chrono::milliseconds(0), kScrapeTimeout);
  const auto begin = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - begin < kWindow) {
    std::optional<double> last = sample("rocewatch_last_poll_timestamp_seconds");
    if (last && (polls.empty() || *last != polls.back())) polls.push_back(*last);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  storm.Stop();
  const double count_after = sample("rocewatch_poll_duration_seconds_count").value_or(0);

  EXPECT_EQ(storm.failed(), 0u) << ::testing::PrintToString(storm.failures());
  ASSERT_GE(polls.size(), 20u);
  double worst = 0;
  for (size_t i = 1; i < polls.size(); ++i) {
    double gap = polls[i] - polls[i - 1];
    worst = std::max(worst, std::abs(gap - kInterval) / kInterval);
    EXPECT_NEAR(gap, kInterval, 0.1 * kInterval) << "between polls " << i - 1 << " and " << i;
  }
  const double polls_per_second = (count_after - count_before) / elapsed;
  EXPECT_NEAR(polls_per_second, 1.0 / kInterval, 0.1 / kInterval);

  const double scrapes_per_second = static_cast<double>(storm.succeeded()) / elapsed;
  std::printf(
      "load: %d scrapers, %.1f s: %llu scrapes ok (%.0f/s), %llu failed, slowest %.3f s; "
      "%zu polls seen, worst gap deviation %.1f%%, %.3f polls/s\n",
      kScrapers, elapsed, static_cast<unsigned long long>(storm.succeeded()), scrapes_per_second,
      static_cast<unsigned long long>(storm.failed()), storm.max_seconds(), polls.size(),
      100 * worst, polls_per_second);
  RecordProperty("scrapes_ok", std::to_string(storm.succeeded()));
  RecordProperty("worst_gap_deviation_percent", std::to_string(100 * worst));
  EXPECT_EQ((*daemon)->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
