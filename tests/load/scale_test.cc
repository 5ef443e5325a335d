// Scale: `rocewatch run` on 64 devices x 2 ports with every slot of every 255-slot GID table used
// (32,640 GID entries, the largest exposition a node can give). States, and bounds generously,
// the first poll's time (every listing, attribute, counter and GID slot read), the steady poll's,
// the peak RSS, one scrape's time alone, and the scrape times with 200 scrapers back to back.
// docs/benchmarks.md ("Scale: 64 devices x 2 ports, full GID tables") quotes the figures and
// says why each bound is what it is. ctest label `load`.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kDevices = 64;
constexpr int kPorts = 2;
// Scrapers at once, each from its own loopback address: within the HTTP server's bound of 64
// connections (docs/reliability.md, "The HTTP surface"; beyond it the longest waiting are
// dropped by design), many more than the one or two Prometheus servers a node has.
constexpr int kScrapers = 48;
constexpr auto kStormWindow = seconds(15);
constexpr auto kScrapeTimeout = seconds(60);

// A field of /proc/<pid>/status in kB (VmHWM, VmRSS), or -1.
long StatusKb(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  return -1;
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t at = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(at, values.size() - 1)];
}

double SecondsSince(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

TEST(ScaleTest, SixtyFourDevicesOfTwoPortsWithFullGidTables) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", FullTableNode(kDevices, kPorts)).ok());
  auto daemon = DaemonProcess::Start({"--host-root", dir.path(), "--state-file", "", "--gid-source",
                                      "sysfs", "--log-level", "warn"},
                                     "", seconds(60));
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  const int port = (*daemon)->port();

  // The first poll: the only one in the histogram at the first scrape, unless more followed.
  auto metrics = HttpGet("127.0.0.1", port, "/metrics", kScrapeTimeout);
  ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
  EXPECT_GT(std::count(metrics->body.begin(), metrics->body.end(), '\n'), 32640);
  ASSERT_NE(metrics->body.find("rocewatch_gid_info{device=\"mlx5_63\",port=\"2\",index=\"254\""),
            std::string::npos);
  const double first_count = *FindSample(metrics->body, "rocewatch_poll_duration_seconds_count");
  const double first_sum = *FindSample(metrics->body, "rocewatch_poll_duration_seconds_sum");
  const double first_poll = first_sum / first_count;  // the first alone when count is 1

  // One scrape at a time: what building and serving the exposition costs.
  std::vector<double> alone;
  for (int i = 0; i < 15; ++i) {
    const auto begin = std::chrono::steady_clock::now();
    auto scraped = HttpGet("127.0.0.1", port, "/metrics", kScrapeTimeout);
    ASSERT_TRUE(scraped.ok());
    alone.push_back(SecondsSince(begin));
  }

  // 200 scrapers back to back.
  std::mutex mutex;
  std::vector<double> stormed;
  std::atomic<int> failed{0}, throttled{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> scrapers;
  for (int i = 0; i < kScrapers; ++i) {
    scrapers.emplace_back([&, i] {
      while (!stop.load()) {
        const auto begin = std::chrono::steady_clock::now();
        auto scraped =
            HttpGet("127.0.0.1", port, "/metrics", kScrapeTimeout, LoopbackClientAddress(i));
        const double took = SecondsSince(begin);
        // Beyond 64 connections at once the server turns newcomers away (docs/reliability.md,
        // "The HTTP surface"): an answer by design, counted apart.
        if (scraped.ok() && scraped->status == 503 &&
            scraped->body.rfind("too many connections", 0) == 0) {
          ++throttled;
          continue;
        }
        if (!scraped.ok() || scraped->status != 200) {
          ++failed;
          continue;
        }
        std::lock_guard<std::mutex> lock(mutex);
        stormed.push_back(took);
      }
    });
  }
  const auto storm_begin = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - storm_begin < kStormWindow)
    std::this_thread::sleep_for(milliseconds(100));
  stop = true;
  for (std::thread& scraper : scrapers) scraper.join();

  metrics = HttpGet("127.0.0.1", port, "/metrics", kScrapeTimeout);
  ASSERT_TRUE(metrics.ok());
  const double count = *FindSample(metrics->body, "rocewatch_poll_duration_seconds_count");
  const double sum = *FindSample(metrics->body, "rocewatch_poll_duration_seconds_sum");
  const double steady_poll = count > first_count ? (sum - first_sum) / (count - first_count) : 0;
  const long hwm_kb = StatusKb((*daemon)->pid(), "VmHWM");
  const long rss_kb = StatusKb((*daemon)->pid(), "VmRSS");

  std::printf(
      "scale: %d devices x %d ports, full 255-slot GID tables: first poll %.3f s (of %g polls "
      "at the first scrape), steady poll %.4f s (mean of %g); VmHWM %.1f MiB, VmRSS %.1f MiB; "
      "scrape alone median %.3f s max %.3f s; %d scrapers: %zu ok, %d failed, %d turned away "
      "(the 64-connection bound), median %.3f s, p99 %.3f s, max %.3f s\n",
      kDevices, kPorts, first_poll, first_count, steady_poll, count - first_count, hwm_kb / 1024.0,
      rss_kb / 1024.0, Percentile(alone, 0.5), Percentile(alone, 1.0), kScrapers, stormed.size(),
      failed.load(), throttled.load(), Percentile(stormed, 0.5), Percentile(stormed, 0.99),
      Percentile(stormed, 1.0));

  // Generous bounds (docs/benchmarks.md): a regression by several times fails, a busy machine
  // does not.
  EXPECT_LT(first_poll, 20.0);  // 6.7 s measured at a load average of 15-20 on 2 cores
  // No read of the healthy tree was taken as stuck, however slow the machine.
  EXPECT_EQ(FindSample(metrics->body, "rocewatch_reading_threads_abandoned"), 0);
  EXPECT_LT(steady_poll, 0.5);
  EXPECT_LT(hwm_kb, 256 * 1024);
  EXPECT_LT(Percentile(alone, 0.5), 2.0);
  EXPECT_EQ(failed.load(), 0);
  EXPECT_LT(Percentile(stormed, 0.99), 30.0);
  EXPECT_EQ((*daemon)->Stop(seconds(10)), 0);
}

}  // namespace
}  // namespace rocewatch
