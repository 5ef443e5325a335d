// `rocewatch run` driven by ethtool recordings that change while it runs, as a demo or a replay
// does: the daemon reads <host-root>/rocewatch/ethtool/<netdev>/ on every poll, and the recorded
// mlx5 rail of the bundled example node degrades (pre-FEC BER, uncorrectable blocks), storms each
// way and loses an optics lane's light. The windows are shortened so that each phase takes
// seconds; the recordings advance with real time, so the daemon's rates are the written ones.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "support/daemon_process.h"
#include "support/example_node.h"
#include "support/golden.h"
#include "support/module_pages.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using SteadyClock = std::chrono::steady_clock;  // not rocewatch::Clock (unity batches)

const std::string kRail = "{netdev=\"ens1f0np0\"";

class LinkQualityRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteExampleNode(root_.path()).ok());
    root_.WriteFile("sys/class/net/ens1f0np0/speed", "100000\n");
    start_ = SteadyClock::now();
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
    const double now = std::chrono::duration<double>(SteadyClock::now() - start_).count();
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
    const auto deadline = SteadyClock::now() + std::chrono::seconds(20);
    while (SteadyClock::now() < deadline) {
      Write();
      StatusOr<std::string> metrics = daemon_->Scrape();
      if (metrics.ok() && FindSample(*metrics, series) == value) return true;
    }
    return false;
  }

  // Runs `rocewatch diagnose ARGS --host-root ROOT` while the recordings keep moving (written
  // every 20 ms from this thread); its stdout.
  std::string DiagnoseWhileWriting(const std::string& args, int* status, double* seconds) {
    std::atomic<bool> done{false};
    std::string out;
    const auto started = SteadyClock::now();
    std::thread diagnose([&] {
      out = RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose " + args + " --host-root " +
                           root_.path() + " 2>/dev/null",
                       status);
      done = true;
    });
    while (!done) {
      Write();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    diagnose.join();
    *seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
    return out;
  }
  std::string DaemonUrl() const { return "http://127.0.0.1:" + std::to_string(daemon_->port()); }

  TempDir root_;
  std::unique_ptr<DaemonProcess> daemon_;
  SteadyClock::time_point start_;
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

// A one-shot diagnose without a daemon rates the changing recordings itself: two samples
// --link-window apart, the figures said to be this run's.
TEST_F(LinkQualityRunTest, OneShotDiagnoseSamplesTheChangingRecordingsOverItsWindow) {
  int status = -1;
  double took = 0;
  ber_ = 3e-5;
  nlohmann::json report = nlohmann::json::parse(
      DiagnoseWhileWriting("--json --daemon none --link-window 1s", &status, &took));
  ASSERT_EQ(report["link_quality"].size(), 1u);
  const nlohmann::json& link = report["link_quality"][0];
  EXPECT_EQ(link["window"]["source"], "sampled");
  EXPECT_NEAR(link["window"]["seconds"].get<double>(), 1.0, 0.5);
  EXPECT_EQ(link["state"], "degraded") << link.dump(1);
  EXPECT_NEAR(link["pre_fec_ber"].get<double>(), 3e-5, 1.5e-5);
  EXPECT_GE(took, 1.0);
  std::printf("one-shot diagnose with --link-window 1s took %.2f s\n", took);

  ber_ = 1e-8;
  tx_paused_ = 0.9;
  const std::string text = DiagnoseWhileWriting("--daemon none --link-window 1s", &status, &took);
  EXPECT_NE(text.find("ens1f0np0: ok"), std::string::npos) << text;
  EXPECT_NE(text.find("[sampled over 1."), std::string::npos) << text;
  EXPECT_NE(text.find("PFC priority 3 tx: paused"), std::string::npos) << text;
  EXPECT_NE(text.find("[pfc_storm_tx]"), std::string::npos) << text;
  tx_paused_ = 0;
  rx_paused_ = 0.8;
  const std::string rx = DiagnoseWhileWriting("--daemon none --link-window 1s", &status, &took);
  EXPECT_NE(rx.find("[pfc_storm_rx]"), std::string::npos) << rx;
  EXPECT_EQ(rx.find("[pfc_storm_tx]"), std::string::npos) << rx;
}

// With the daemon answering, diagnose shows the daemon's figures (its longer windows) and does
// not wait for a sample of its own.
TEST_F(LinkQualityRunTest, DiagnoseShowsTheDaemonsLinkQualityWithoutWaiting) {
  ber_ = 3e-5;
  ASSERT_TRUE(Until("rocewatch_link_quality_state" + kRail + ",state=\"degraded\"}", 1));
  int status = -1;
  double took = 0;
  nlohmann::json report = nlohmann::json::parse(
      DiagnoseWhileWriting("--json --link-window 30s --daemon " + DaemonUrl(), &status, &took));
  ASSERT_EQ(report["link_quality"].size(), 1u);
  const nlohmann::json& link = report["link_quality"][0];
  EXPECT_EQ(link["window"]["source"], "daemon");
  EXPECT_EQ(link["state"], "degraded") << link.dump(1);
  EXPECT_NEAR(link["pre_fec_ber"].get<double>(), 3e-5, 1.5e-5);
  EXPECT_LT(took, 30.0);  // the 30 s window was not waited for
  std::printf("diagnose with the daemon's figures took %.2f s\n", took);
  bool degraded = false;
  for (const auto& f : report["findings"])
    degraded = degraded || (f["check"] == "link_quality_degraded" && f["subject"] == "ens1f0np0");
  EXPECT_TRUE(degraded) << report["findings"].dump(1);
}

}  // namespace
}  // namespace rocewatch
