// The one-shot look at link quality (`rocewatch diagnose` without --watch): two samples a window
// apart, the recordings rewritten in between as a changing host (or a replay) would, through the
// daemon's detectors. The wait is the test's: it advances the fake clock and rewrites the files.
#include "link_quality/link_quality_snapshot.h"

#include <gtest/gtest.h>

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/module_pages.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

constexpr const char* kSnapshotNetdev = "ens1f0np0";
const std::string kSnapshotDir = "/host/rocewatch/ethtool/ens1f0np0/";

struct Counters {
  uint64_t corrected_bits = 1000;
  uint64_t uncorrectable = 0;
  uint64_t tx_pause_us = 0;
  uint64_t rx_pause_us = 0;
};

class LinkQualityLookTest : public ::testing::Test {
 protected:
  LinkQualityLookTest() : poller_(fs_, "/host", "/host/sys", nullptr, nullptr) {
    fs_.AddFile("/host/sys/class/net/ens1f0np0/speed", "100000\n");  // 100 Gb/s
    Record(before_);
    Record(before_, "link_state", "link: yes\n");
  }
  void Record(const Counters& c, const std::string& file = "", const std::string& text = "") {
    if (!file.empty()) {
      fs_.AddFile(kSnapshotDir + file, text);
      return;
    }
    DriverStatistics s;
    s.counters = {{"rx_corrected_bits_phy", c.corrected_bits},
                  {"tx_prio3_pause_duration", c.tx_pause_us},
                  {"rx_prio3_pause_duration", c.rx_pause_us},
                  {"vendor_counter", 7}};
    fs_.AddFile(kSnapshotDir + "statistics", FormatDriverStatisticsText(s));
    FecReading fec;
    fec.uncorrectable_blocks = c.uncorrectable;
    fs_.AddFile(kSnapshotDir + "fec", FormatFecRecording(fec));
  }
  // Waits by advancing the clock, then the host has moved on to `after_`.
  LinkQualityLook Look(Duration window = seconds(2)) {
    LinkQualityLookOptions options;
    options.optics = optics_;
    options.window = window;
    options.figures_elsewhere = elsewhere_;
    options.modules_by_daemon = modules_by_daemon_;
    return LookAtLinkQuality(
        poller_, {kSnapshotNetdev}, clock_,
        [this](Duration d) {
          waited_ += d;
          clock_.Advance(d);
          Record(after_);
        },
        options);
  }
  static bool Has(const LinkQualityLook& look, const std::string& check) {
    for (const Finding& f : look.findings)
      if (f.check == check && f.subject == kSnapshotNetdev) return true;
    return false;
  }

  FakeFileSystem fs_;
  FakeClock clock_;
  EthtoolPoller poller_;
  Counters before_, after_;
  std::set<std::string> elsewhere_;
  bool optics_ = false;
  std::map<std::string, Duration> modules_by_daemon_;
  Duration waited_{};
};

TEST_F(LinkQualityLookTest, AHealthyLinkIsOkOverTheWindow) {
  after_ = before_;
  after_.corrected_bits += 2000;  // 1e-8 of 2 s at 100 Gb/s
  LinkQualityLook look = Look();
  EXPECT_EQ(waited_, seconds(2));
  ASSERT_EQ(look.entries.size(), 1u);
  const LinkQualityEntry& e = look.entries[0];
  EXPECT_EQ(e.figures, LinkFiguresSource::kSampled);
  ASSERT_TRUE(e.quality && e.quality->pre_fec_ber);
  EXPECT_NEAR(*e.quality->pre_fec_ber, 1e-8, 1e-10);
  EXPECT_EQ(e.quality->state, LinkQualityState::kOk);
  EXPECT_DOUBLE_EQ(e.quality->window_seconds, 2.0);
  EXPECT_TRUE(look.findings.empty());
  // The entry shows the second sample's counters.
  EXPECT_EQ(*e.readings.driver->Find("rx_corrected_bits_phy"), before_.corrected_bits + 2000);
}

TEST_F(LinkQualityLookTest, ABerAboveTheThresholdIsDegradedInTextAndJson) {
  after_ = before_;
  after_.corrected_bits += 6'000'000;  // 3e-5 over 2 s at 100 Gb/s
  LinkQualityLook look = Look();
  ASSERT_EQ(look.entries.size(), 1u);
  EXPECT_EQ(look.entries[0].quality->state, LinkQualityState::kDegraded);
  EXPECT_TRUE(Has(look, "link_quality_degraded"));
  const std::string text = RenderLinkQualityText(look.entries);
  EXPECT_NE(text.find("ens1f0np0: degraded, pre-FEC BER 3.0e-05"), std::string::npos) << text;
  EXPECT_NE(text.find("[sampled over 2.0 s by this run]"), std::string::npos) << text;
  nlohmann::ordered_json json = LinkQualityToJson(look.entries)[0];
  EXPECT_EQ(json["state"], "degraded");
  EXPECT_EQ(json["window"]["source"], "sampled");
  EXPECT_DOUBLE_EQ(json["window"]["seconds"].get<double>(), 2.0);
}

TEST_F(LinkQualityLookTest, UncorrectableBlocksDuringTheWindowAreFailing) {
  after_ = before_;
  after_.uncorrectable += 40;  // 20/s
  LinkQualityLook look = Look();
  EXPECT_EQ(look.entries[0].quality->state, LinkQualityState::kFailing);
  EXPECT_TRUE(Has(look, "link_quality_failing"));
}

TEST_F(LinkQualityLookTest, APfcStormEachWay) {
  after_ = before_;
  after_.tx_pause_us += 1'800'000;  // 90% of 2 s: this host sends pause
  LinkQualityLook tx = Look();
  EXPECT_TRUE(Has(tx, "pfc_storm_tx"));
  EXPECT_FALSE(Has(tx, "pfc_storm_rx"));

  before_ = after_;
  Record(before_);
  after_.rx_pause_us += 1'600'000;  // 80%: the fabric pauses this host
  LinkQualityLook rx = Look();
  EXPECT_TRUE(Has(rx, "pfc_storm_rx"));
  EXPECT_FALSE(Has(rx, "pfc_storm_tx"));
  bool found = false;
  for (const auto& [key, status] : rx.entries[0].pfc) {
    if (key.priority != 3 || key.direction != PauseDirection::kRx) continue;
    found = true;
    EXPECT_TRUE(status.storm);
    EXPECT_NEAR(*status.paused_fraction, 0.8, 1e-6);
  }
  EXPECT_TRUE(found);
  EXPECT_NE(RenderLinkQualityText(rx.entries).find("PFC priority 3 rx: paused 80% (storm)"),
            std::string::npos);
}

TEST_F(LinkQualityLookTest, NoWaitWithoutARateableCounter) {
  fs_.AddFile(kSnapshotDir + "statistics", "NIC statistics:\n     peer_ifindex: 7\n");
  fs_.AddFile(kSnapshotDir + "fec", kUnsupportedRecording);
  LinkQualityLook look = Look();
  EXPECT_EQ(waited_, Duration::zero());
  ASSERT_EQ(look.entries.size(), 1u);
  EXPECT_EQ(look.entries[0].figures, LinkFiguresSource::kNone);
  EXPECT_NE(look.entries[0].no_figures_reason.find("no FEC, PHY error or pause-duration"),
            std::string::npos);
  EXPECT_EQ(LinkQualityToJson(look.entries)[0]["state"], "unknown");
}

TEST_F(LinkQualityLookTest, AZeroWindowOrFiguresFromElsewhereAreNotWaitedFor) {
  LinkQualityLook once = Look(Duration::zero());
  EXPECT_EQ(waited_, Duration::zero());
  EXPECT_EQ(once.entries[0].figures, LinkFiguresSource::kNone);
  elsewhere_ = {kSnapshotNetdev};
  LinkQualityLook daemon = Look();
  EXPECT_EQ(waited_, Duration::zero());
  EXPECT_EQ(daemon.entries[0].figures, LinkFiguresSource::kNone);
}

// I2C reads are slow and contend with the driver: a module the daemon read lately is not read
// again (its optics findings are the daemon's); the others still are.
TEST_F(LinkQualityLookTest, AModuleTheDaemonReadIsNotReadAgain) {
  for (const auto& [address, bytes] : Sff8636Pages(HealthyQuadLanes()))
    fs_.AddFile(kSnapshotDir + "module/" + ModulePageFileName(address), bytes);
  auto module_reads = [this] {
    size_t reads = 0;
    for (const std::string& path : fs_.files_read())
      reads += path.find(kSnapshotDir + "module/") == 0;
    return reads;
  };
  optics_ = true;
  LinkQualityLook own = Look(Duration::zero());
  ASSERT_TRUE(own.entries[0].module && own.entries[0].module->module);
  EXPECT_GT(module_reads(), 0u);

  fs_.ClearFilesRead();
  modules_by_daemon_[kSnapshotNetdev] = seconds(12);
  LinkQualityLook daemon = Look(Duration::zero());
  EXPECT_EQ(module_reads(), 0u);
  EXPECT_FALSE(daemon.entries[0].module);
  EXPECT_EQ(LinkQualityToJson(daemon.entries)[0]["module"]["read_by"], "daemon");
  EXPECT_NE(RenderLinkQualityText(daemon.entries).find("module: read by the daemon 12 s ago"),
            std::string::npos);
}

TEST_F(LinkQualityLookTest, ALinkThatIsDownHasNoRates) {
  Record(before_, "link_state", "link: no\next_state: 5\n");
  after_ = before_;
  after_.corrected_bits += 6'000'000;
  LinkQualityLook look = Look();
  EXPECT_EQ(look.entries[0].figures, LinkFiguresSource::kNone);
  EXPECT_EQ(LinkQualityToJson(look.entries)[0]["state"], "unknown");
  EXPECT_TRUE(Has(look, "link_down_reason"));
}

TEST(EthtoolReadFailureTest, FailedRequestsAreNamedAndUnknownNotZero) {
  NetdevEthtool readings;
  EXPECT_FALSE(EthtoolReadFailure("ens1f0np0", readings).has_value());
  readings.errors = {"fec: timed out", "statistics: Input/output error", "pause: x",
                     "link_state: y", "standard: z"};
  std::optional<Finding> f = EthtoolReadFailure("ens1f0np0", readings);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->check, "read_failed");
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->subject, "ens1f0np0");
  EXPECT_NE(f->message.find("(fec: timed out; statistics: Input/output error; pause: x; and 2 "
                            "more)"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("unknown, not zero"), std::string::npos);
  LinkQualityEntry entry;
  entry.netdev = "ens1f0np0";
  entry.readings = readings;
  std::vector<Finding> one_shot = OneShotLinkQualityFindings({entry});
  ASSERT_EQ(one_shot.size(), 1u) << "diagnose reports it too";
  EXPECT_EQ(one_shot[0].check, "read_failed");
}

}  // namespace
}  // namespace rocewatch
