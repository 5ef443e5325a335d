// SIGTERM (and SIGINT) reaching `rocewatch run` at random moments while it polls a 16-rail node
// back to back and scrapers hit it: the daemon finishes the poll it is in, stops cleanly (exit 0,
// "stopped" logged) within a bound, and no scrape before the signal failed.
#include <gtest/gtest.h>
#include <signal.h>

#include <random>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/scrape_storm.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

TEST(SigtermDuringPollTest, StopsCleanlyWhateverThePollIsDoing) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(16)).ok());
  std::mt19937 random(20261129);
  constexpr int kRounds = 8;
  double busy_fraction_sum = 0;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // A 50 ms interval on 16 full 255-slot tables: a poll is running a good part of the time.
    auto daemon = DaemonProcess::Start({"--host-root", dir.path(), "--state-file", "", "--interval",
                                        "50ms", "--log-level", "info"});
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    {
      ScrapeStorm storm((*daemon)->port(), 4);
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::uniform_int_distribution<int>(150, 600)(random)));
      auto metrics = (*daemon)->Scrape();
      ASSERT_TRUE(metrics.ok());
      double count = FindSample(*metrics, "rocewatch_poll_duration_seconds_count").value_or(0);
      double sum = FindSample(*metrics, "rocewatch_poll_duration_seconds_sum").value_or(0);
      if (count > 0) busy_fraction_sum += (sum / count) / 0.05;
      storm.Stop();
      EXPECT_EQ(storm.failed(), 0u) << ::testing::PrintToString(storm.failures());
      // A random moment within the next poll interval.
      std::this_thread::sleep_for(
          std::chrono::microseconds(std::uniform_int_distribution<int>(0, 50'000)(random)));
      int signo = round % 2 == 0 ? SIGTERM : SIGINT;
      ASSERT_TRUE((*daemon)->Signal(signo));
      if (round % 4 == 1) (*daemon)->Signal(SIGTERM);  // a second signal while stopping
    }
    std::optional<int> status = (*daemon)->WaitForExit(std::chrono::seconds(5));
    ASSERT_TRUE(status.has_value()) << "did not exit within 5 s of the signal";
    EXPECT_EQ(*status, 0) << "negative: killed by that signal";
    EXPECT_NE((*daemon)->ReadLog().find("stopped"), std::string::npos) << (*daemon)->ReadLog();
  }
  // How likely a signal was to land inside a poll: the mean poll time over the interval.
  std::printf("sigterm: mean poll %.0f%% of the 50 ms interval\n",
              100 * busy_fraction_sum / kRounds);
  RecordProperty("mean_poll_busy_fraction", std::to_string(busy_fraction_sum / kRounds));
}

}  // namespace
}  // namespace rocewatch
