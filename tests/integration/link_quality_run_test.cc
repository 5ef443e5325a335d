// `rocewatch run` driven by ethtool recordings that change while it runs, as a demo or a replay
// does: the daemon reads <host-root>/rocewatch/ethtool/<netdev>/ on every poll, and the recorded
// mlx5 rail of the bundled example node degrades (pre-FEC BER, uncorrectable blocks), storms each
// way and loses an optics lane's light. The windows are shortened so that each phase takes
// seconds; the recordings advance with real time, so the daemon's rates are the written ones.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "support/daemon_process.h"
#include "support/example_node.h"
#include "support/module_pages.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using Clock = std::chrono::steady_clock;

const std::string kRail = "{netdev=\"ens1f0np0\"";

class LinkQualityRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteExampleNode(root_.path()).ok());
    root_.WriteFile("sys/class/net/ens1f0np0/speed", "100000\n");
    start_ = Clock::now();
    Write();
    auto daemon =
        DaemonProcess::Start({"--host-root", root_.path(), "--state-file", "", "--interval",
                              "100ms", "--ethtool-interval", "100ms", "--link-quality-window", "2s",
                              "--pfc-window", "1s", "--optics-interval", "300ms"});
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(*daemon);
  }

  // Rewrites the recordings for the time elapsed since the start: every rate set below is
  // integrated, so the counters grow as a real link's would. Atomic (rename), as the daemon may
  // read at any moment.
  void Write() {
    const double now = std::chrono::duration<double>(Clock::now() - start_).count();
    const double dt = now - last_write_;
    last_write_ = now;
    corrected_bits_ += ber_ * 100e9 * dt;
    uncorrectable_ += uncorrectable_per_second_ * dt;
    tx_pause_us_ += tx_paused_ * 1e6 * dt;
    rx_pause_us_ += rx_paused_ * 1e6 * dt;
    DriverStatistics s;
    s.counters = {{"rx_corrected_bits_phy", static_cast<uint64_t>(corrected_bits_)},
                  {"rx_symbol_err_phy", 0},
                  {"tx_prio3_pause_duration", static_cast<uint64_t>(tx_pause_us_)},
                  {"rx_prio3_pause_duration", static_cast<uint64_t>(rx_pause_us_)}};
    FecReading fec;
    fec.uncorrectable_blocks = static_cast<uint64_t>(uncorrectable_);
    Atomically("statistics", FormatDriverStatisticsText(s));
    Atomically("fec", FormatFecRecording(fec));
    Atomically("link_state", "link: yes\n");
    for (const auto& [address, bytes] : Sff8636Pages(module_))
      Atomically("module/" + ModulePageFileName(address), bytes);
  }
  void Atomically(const std::string& file, const std::string& content) {
    const std::string path = "rocewatch/ethtool/ens1f0np0/" + file;
    const std::string written = root_.WriteFile(path + ".new", content);
    std::filesystem::rename(written, root_.path() + "/" + path);
  }
  // Keeps the recordings moving and scrapes until `series` has `value` (at most 20 s).
  bool Until(const std::string& series, double value) {
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
      Write();
      StatusOr<std::string> metrics = daemon_->Scrape();
      if (metrics.ok() && FindSample(*metrics, series) == value) return true;
    }
    return false;
  }

  TempDir root_;
  std::unique_ptr<DaemonProcess> daemon_;
  Clock::time_point start_;
  double last_write_ = 0;
  double ber_ = 1e-8, uncorrectable_per_second_ = 0, tx_paused_ = 0, rx_paused_ = 0;
  double corrected_bits_ = 1e6, uncorrectable_ = 0, tx_pause_us_ = 0, rx_pause_us_ = 0;
  ModuleValues module_ = HealthyQuadLanes();
};

TEST_F(LinkQualityRunTest, ChangingRecordingsDriveTheDetectorsOfTheRunningDaemon) {
  EXPECT_TRUE(Until("rocewatch_link_quality_state" + kRail + ",state=\"ok\"}", 1));

  ber_ = 3e-5;  // degrading: above the 1e-5 threshold, below 1e-4
  EXPECT_TRUE(Until("rocewatch_link_quality_state" + kRail + ",state=\"degraded\"}", 1))
      << daemon_->ReadLog();

  uncorrectable_per_second_ = 20;  // frames lost on the wire
  EXPECT_TRUE(Until("rocewatch_link_quality_state" + kRail + ",state=\"failing\"}", 1));
  ber_ = 1e-8;
  uncorrectable_per_second_ = 0;
  EXPECT_TRUE(Until("rocewatch_link_quality_state" + kRail + ",state=\"ok\"}", 1));

  const std::string prio = ",priority=\"3\"";
  tx_paused_ = 0.9;  // this host sends pause
  EXPECT_TRUE(Until("rocewatch_netdev_pfc_storm" + kRail + prio + ",direction=\"tx\"}", 1));
  tx_paused_ = 0;
  rx_paused_ = 0.8;  // the fabric pauses this host
  EXPECT_TRUE(Until("rocewatch_netdev_pfc_storm" + kRail + prio + ",direction=\"rx\"}", 1));
  EXPECT_TRUE(Until("rocewatch_netdev_pfc_storm" + kRail + prio + ",direction=\"tx\"}", 0));

  module_.rx_power_watts[2] = 0;  // lane 3 goes dark
  EXPECT_TRUE(Until("rocewatch_module_lane_dark" + kRail + ",lane=\"3\"}", 1));
  EXPECT_TRUE(Until("rocewatch_module_out_of_range" + kRail +
                        ",quantity=\"rx_power\",lane=\"3\",level=\"alarm\",side=\"low\"}",
                    1));

  const std::string log = daemon_->ReadLog();
  EXPECT_NE(log.find("ens1f0np0 link quality ok -> degraded: pre-FEC BER"), std::string::npos)
      << log;
  EXPECT_NE(log.find("ens1f0np0 PFC storm started on priority 3 (this host sends pause)"),
            std::string::npos);
  EXPECT_EQ(daemon_->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
