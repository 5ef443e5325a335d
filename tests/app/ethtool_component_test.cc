// The ethtool component inside the Monitor, driven by recordings that change between polls (as a
// support bundle or a demo does): recorded mlx5 counters in, link quality, PFC storms, optics,
// metrics, events and findings out.
#include "link_quality/ethtool_component.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <algorithm>

#include "daemon/monitor.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/fake_snapshot_source.h"
#include "support/http_client.h"
#include "support/module_pages.h"
#include "support/no_kernel_ethtool.h"
#include "support/node_builder.h"
#include "support/state_stub_component.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

constexpr const char* kNetdev = "ens1f0np0";
const std::string kDir = "/host/rocewatch/ethtool/ens1f0np0/";

// One recorded 100G mlx5 port; each Poll() advances 10 s and rewrites the recordings.
class EthtoolComponentTest : public ::testing::Test {
 protected:
  EthtoolComponentTest() : source_(clock_), loop_(clock_), monitor_(loop_, source_, {seconds(10)}) {
    NodeSnapshot node;
    node.devices.push_back(RoceDevice("mlx5_0", kNetdev, {}));
    source_.node = node;
    fs_.AddFile("/host/sys/class/net/ens1f0np0/speed", "100000\n");
    EthtoolOptions options;
    auto component = std::make_unique<EthtoolComponent>(options, fs_, HostPaths::ForRoots("/host"),
                                                        NoKernelEthtoolSources());
    ethtool_ = component.get();
    monitor_.AddComponent(std::move(component));
    // The netdev links the ethtool component reads (netlink's): none known here.
    monitor_.AddComponent(
        std::make_unique<StateStubComponent>(StateParts{StatePart::kNetdevLinks}, "netlink"));
    monitor_.SetEventObserver(
        [this](double, std::string_view what) { events_.emplace_back(what); });
    WriteRecordings();
    modules_ = HealthyQuadLanes();
    WriteModule();
  }
  void WriteRecordings() {
    DriverStatistics s;
    s.counters = {{"rx_packets_phy", 1000},
                  {"rx_corrected_bits_phy", corrected_bits_},
                  {"rx_symbol_err_phy", 0},
                  {"link_down_events_phy", 2},
                  {"rx_prio3_pause", 10},
                  {"rx_prio3_pause_duration", rx_pause_us_},
                  {"tx_prio3_pause", 10},
                  {"tx_prio3_pause_duration", tx_pause_us_},
                  {"tx_pause_storm_warning_events", 0},
                  {"tx_pause_storm_error_events", 0},
                  {"some_future_counter", 7}};
    fs_.AddFile(kDir + "statistics", FormatDriverStatisticsText(s));
    FecReading fec;
    fec.corrected_blocks = corrected_bits_ / 2;
    fec.uncorrectable_blocks = uncorrectable_;
    fs_.AddFile(kDir + "fec", corrupt_fec_ ? "corrected_blocks: lots\n" : FormatFecRecording(fec));
    fs_.AddFile(kDir + "link_state", "link: yes\n");
    fs_.AddFile(kDir + "pause", kUnsupportedRecording);
  }
  void WriteModule() {
    for (const auto& [address, bytes] : Sff8636Pages(modules_))
      fs_.AddFile(kDir + "module/" + ModulePageFileName(address), bytes);
  }
  // 10 s pass in which the link corrected bits at `ber`, lost `uncorrectable` blocks and was
  // paused `tx_paused` / `rx_paused` of the time on priority 3.
  void Poll(double ber, uint64_t uncorrectable = 0, double tx_paused = 0, double rx_paused = 0) {
    corrected_bits_ += static_cast<uint64_t>(ber * 100e9 * 10);
    uncorrectable_ += uncorrectable;
    tx_pause_us_ += static_cast<uint64_t>(tx_paused * 10e6);
    rx_pause_us_ += static_cast<uint64_t>(rx_paused * 10e6);
    WriteRecordings();
    clock_.Advance(seconds(10));
    running_->RunOnce(Duration::zero());
  }
  std::string Exposition() {
    return prometheus::TextSerializer().Serialize(monitor_.BuildExposition());
  }
  std::optional<double> Sample(const std::string& series) {
    return FindSample(Exposition(), series);
  }
  std::vector<std::string> Checks() {
    std::vector<std::string> checks;
    for (const Finding& f : monitor_.CurrentFindings()) checks.push_back(f.check);
    return checks;
  }

  FakeClock clock_;
  FakeSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_;
  FakeFileSystem fs_;
  EthtoolComponent* ethtool_ = nullptr;
  bool corrupt_fec_ = false;     // the FEC recording does not parse
  EventLoop* running_ = &loop_;  // the loop Poll() runs
  std::vector<std::string> events_;
  ModuleValues modules_;
  uint64_t corrected_bits_ = 1'000'000, uncorrectable_ = 0, tx_pause_us_ = 0, rx_pause_us_ = 0;
};

TEST_F(EthtoolComponentTest, HealthyRecordedLinkExportsItsCountersAndOk) {
  ASSERT_TRUE(monitor_.Start().ok());
  for (int i = 0; i < 7; ++i) Poll(1e-8);
  EXPECT_EQ(Sample("rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"ok\"}"), 1);
  EXPECT_NEAR(*Sample("rocewatch_netdev_pre_fec_ber{netdev=\"ens1f0np0\"}"), 1e-8, 1e-10);
  EXPECT_EQ(Sample("rocewatch_netdev_fec_uncorrectable_blocks_total{netdev=\"ens1f0np0\"}"), 0);
  EXPECT_EQ(Sample("rocewatch_netdev_link_down_events_total{netdev=\"ens1f0np0\"}"), 2);
  EXPECT_EQ(Sample("rocewatch_netdev_ethtool_supported{netdev=\"ens1f0np0\",request=\"pause\"}"),
            0);
  EXPECT_EQ(Sample("rocewatch_netdev_ethtool_supported{netdev=\"ens1f0np0\",request=\"fec\"}"), 1);
  EXPECT_NEAR(*Sample("rocewatch_module_rx_power_watts{netdev=\"ens1f0np0\",lane=\"1\"}"), 0.63e-3,
              1e-7);
  EXPECT_NEAR(*Sample("rocewatch_module_temperature_celsius{netdev=\"ens1f0np0\"}"), 40.5, 1e-9);
  EXPECT_TRUE(Checks().empty());
}

TEST_F(EthtoolComponentTest, BerDegradingIsAnEventAFindingAndTheStateMetric) {
  ASSERT_TRUE(monitor_.Start().ok());
  for (int i = 0; i < 7; ++i) Poll(1e-8);
  for (int i = 0; i < 7; ++i) Poll(5e-5);
  EXPECT_EQ(Sample("rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"degraded\"}"), 1);
  EXPECT_NEAR(*Sample("rocewatch_netdev_pre_fec_ber{netdev=\"ens1f0np0\"}"), 5e-5, 1e-7);
  EXPECT_EQ(Checks(), std::vector<std::string>{"link_quality_degraded"});
  ASSERT_FALSE(events_.empty());
  EXPECT_NE(events_.back().find("ens1f0np0 link quality ok -> degraded: pre-FEC BER"),
            std::string::npos)
      << events_.back();
}

TEST_F(EthtoolComponentTest, UncorrectableBlocksAreFailing) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  for (int i = 0; i < 3; ++i) Poll(1e-8, 200);
  EXPECT_EQ(Sample("rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"failing\"}"), 1);
  EXPECT_EQ(Sample("rocewatch_netdev_fec_uncorrectable_blocks_total{netdev=\"ens1f0np0\"}"), 600);
  EXPECT_EQ(Checks(), std::vector<std::string>{"link_quality_failing"});
}

// A restart of the daemon: a second component on the same recordings, given the first one's
// verdicts (as the state file keeps them), while the link has gone quiet and the pause stopped.
TEST_F(EthtoolComponentTest, VerdictsFromBeforeARestartHoldUntilJudgedOnLiveCounters) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  for (int i = 0; i < 3; ++i) Poll(1e-8, 200, /*tx_paused=*/0.9);
  const EthtoolComponent::Verdicts verdicts = ethtool_->ExportVerdicts();
  ASSERT_EQ(verdicts.link_quality.size(), 1u);
  ASSERT_EQ(verdicts.pfc.storms.size(), 1u);
  monitor_.Stop();

  EventLoop loop(clock_);
  Monitor monitor(loop, source_, {seconds(10)});
  auto component = std::make_unique<EthtoolComponent>(
      EthtoolOptions{}, fs_, HostPaths::ForRoots("/host"), NoKernelEthtoolSources());
  EthtoolComponent& restarted = *component;
  restarted.RestoreVerdicts(verdicts);
  monitor.AddComponent(std::move(component));
  monitor.AddComponent(
      std::make_unique<StateStubComponent>(StateParts{StatePart::kNetdevLinks}, "netlink"));
  std::vector<std::string> events;
  monitor.SetEventObserver([&](double, std::string_view what) { events.emplace_back(what); });
  ASSERT_TRUE(monitor.Start().ok());
  running_ = &loop;
  auto failing = [&] {
    return FindSample(prometheus::TextSerializer().Serialize(monitor.BuildExposition()),
                      "rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"failing\"}");
  };
  EXPECT_EQ(failing(), 1) << "the first scrape after the restart (one sample, at start)";
  EXPECT_TRUE(events.empty()) << testing::PrintToString(events);
  // 10 s later: a measured pause fraction of 0 ends the storm, with an event saying why; one
  // quiet span does not make the failing link ok.
  Poll(1e-8);
  EXPECT_EQ(failing(), 1);
  ASSERT_EQ(events.size(), 1u) << testing::PrintToString(events);
  EXPECT_NE(events[0].find("PFC storm ended on priority 3 (this host sends pause) (restored at "
                           "start, judged on live counters)"),
            std::string::npos)
      << events[0];
  for (int i = 0; i < 4; ++i) Poll(1e-8);
  EXPECT_EQ(failing(), 1) << "50 s of live counters: less than the window";
  Poll(1e-8);
  EXPECT_EQ(failing(), 0);
  ASSERT_EQ(events.size(), 2u) << testing::PrintToString(events);
  EXPECT_NE(events[1].find("ens1f0np0 link quality failing -> ok"), std::string::npos) << events[1];
  EXPECT_NE(events[1].find("(restored at start, judged on live counters)"), std::string::npos);
  monitor.Stop();
}

TEST_F(EthtoolComponentTest, AFailedRequestIsAReadFailedFindingAndAnUnhealthyComponent) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  EXPECT_TRUE(Checks().empty());
  const std::string healthy = "rocewatch_component_success{component=\"ethtool\"}";
  EXPECT_EQ(Sample(healthy), 1);
  corrupt_fec_ = true;
  Poll(1e-8);
  EXPECT_EQ(Checks(), std::vector<std::string>{"read_failed"});
  const std::vector<Finding> findings = monitor_.CurrentFindings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].subject, kNetdev);
  EXPECT_NE(findings[0].message.find("ethtool requests failed (fec: "), std::string::npos)
      << findings[0].message;
  EXPECT_EQ(Sample(healthy), 0);
  corrupt_fec_ = false;
  Poll(1e-8);
  EXPECT_TRUE(Checks().empty());
  EXPECT_EQ(Sample(healthy), 1);
}

TEST_F(EthtoolComponentTest, PfcStormEachWay) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  Poll(1e-8, 0, /*tx_paused=*/0.9);
  const std::string tx = "{netdev=\"ens1f0np0\",priority=\"3\",direction=\"tx\"}";
  const std::string rx = "{netdev=\"ens1f0np0\",priority=\"3\",direction=\"rx\"}";
  EXPECT_EQ(Sample("rocewatch_netdev_pfc_storm" + tx), 1);
  EXPECT_EQ(Sample("rocewatch_netdev_pfc_storm" + rx), 0);
  EXPECT_NEAR(*Sample("rocewatch_netdev_pfc_pause_seconds_total" + tx), 9, 1e-6);
  EXPECT_EQ(Checks(), std::vector<std::string>{"pfc_storm_tx"});
  Poll(1e-8, 0, 0, /*rx_paused=*/0.8);
  EXPECT_EQ(Sample("rocewatch_netdev_pfc_storm" + tx), 0);
  EXPECT_EQ(Sample("rocewatch_netdev_pfc_storm" + rx), 1);
  EXPECT_EQ(Checks(), std::vector<std::string>{"pfc_storm_rx"});
}

TEST_F(EthtoolComponentTest, OpticsOutOfRangeAtTheOpticsCadence) {
  ASSERT_TRUE(monitor_.Start().ok());
  modules_.rx_power_watts[1] = 0.02e-3;  // below the module's 0.04 mW low alarm
  WriteModule();
  Poll(1e-8);  // 10 s: the optics cadence (60 s) has not come round
  EXPECT_EQ(Sample("rocewatch_module_out_of_range{netdev=\"ens1f0np0\",quantity=\"rx_power\","
                   "lane=\"2\",level=\"alarm\",side=\"low\"}"),
            std::nullopt);
  for (int i = 0; i < 5; ++i) Poll(1e-8);
  EXPECT_EQ(Sample("rocewatch_module_out_of_range{netdev=\"ens1f0np0\",quantity=\"rx_power\","
                   "lane=\"2\",level=\"alarm\",side=\"low\"}"),
            1);
  EXPECT_EQ(Checks(), std::vector<std::string>{"optics_alarm"});
}

// After a restart, the modules of netdevs whose optics findings were open are read at the first
// poll, ahead of the one-module-per-poll order, and their finding is not announced again.
TEST_F(EthtoolComponentTest, ModulesOfOpenOpticsFindingsAreReadFirstAfterARestart) {
  // A second rail, ens2f0np0, after ens1f0np0 in the order modules are read; its rx power is low.
  source_.node.devices.push_back(RoceDevice("mlx5_1", "ens2f0np0", {}));
  const std::string dir2 = "/host/rocewatch/ethtool/ens2f0np0/";
  fs_.AddFile("/host/sys/class/net/ens2f0np0/speed", "100000\n");
  for (const char* file : {"statistics", "fec", "link_state", "pause"})
    fs_.AddFile(dir2 + file, *fs_.ReadFile(kDir + file, 1 << 20));
  ModuleValues low = HealthyQuadLanes();
  low.rx_power_watts[1] = 0.02e-3;  // below the module's 0.04 mW low alarm
  for (const auto& [address, bytes] : Sff8636Pages(low))
    fs_.AddFile(dir2 + "module/" + ModulePageFileName(address), bytes);
  const std::string alarm =
      "rocewatch_module_out_of_range{netdev=\"ens2f0np0\",quantity=\"rx_power\",lane=\"2\","
      "level=\"alarm\",side=\"low\"}";

  ethtool_->ReadModulesFirst({"ens2f0np0"});
  ASSERT_TRUE(monitor_.Start().ok());  // the first poll
  EXPECT_EQ(Sample(alarm), 1) << "read at the first poll, not a poll later";
  EXPECT_TRUE(Sample("rocewatch_module_temperature_celsius{netdev=\"ens1f0np0\"}"))
      << "the regular order goes on";
  EXPECT_EQ(Checks(), std::vector<std::string>{"optics_alarm"});
  for (const std::string& event : events_)
    EXPECT_EQ(event.find("ens2f0np0"), std::string::npos) << "announced again: " << event;
}

TEST_F(EthtoolComponentTest, AFailingModuleReadIsCountedNotFatal) {
  fs_.AddFile(kDir + "module/page03", "error: I2C read failed (module flapping)\n");
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  EXPECT_EQ(Sample("rocewatch_module_read_success{netdev=\"ens1f0np0\"}"), 0);
  EXPECT_EQ(Sample("rocewatch_source_errors_total{source=\"ethtool_module\"}"), 1);
  // The lower page still decoded: temperature is known, thresholds are not.
  EXPECT_TRUE(Sample("rocewatch_module_temperature_celsius{netdev=\"ens1f0np0\"}"));
}

TEST_F(EthtoolComponentTest, AModuleReadTheKernelRefusesIsAFindingNamingTheCapability) {
  fs_.AddFile(kDir + "module/lower",
              "error: ETHTOOL_MSG_MODULE_EEPROM_GET ens1f0np0 (needs CAP_NET_ADMIN): "
              "Operation not permitted\n");
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  EXPECT_EQ(Sample("rocewatch_source_errors_total{source=\"ethtool_module\"}"), 1);
  std::vector<Finding> findings = monitor_.CurrentFindings();
  auto refused = std::find_if(findings.begin(), findings.end(),
                              [](const Finding& f) { return f.check == "optics_not_permitted"; });
  ASSERT_NE(refused, findings.end());
  EXPECT_EQ(refused->subject, kNetdev);
  EXPECT_EQ(refused->severity, Severity::kWarning);
  EXPECT_NE(refused->message.find("CAP_NET_ADMIN"), std::string::npos);
}

TEST_F(EthtoolComponentTest, AModuleThatFailsAReadIsNoPermissionFinding) {
  fs_.AddFile(kDir + "module/lower", "error: I2C read failed (module flapping)\n");
  ASSERT_TRUE(monitor_.Start().ok());
  Poll(1e-8);
  std::vector<std::string> checks = Checks();
  EXPECT_EQ(std::count(checks.begin(), checks.end(), "optics_not_permitted"), 0);
}

TEST_F(EthtoolComponentTest, ReportEntriesCarryTheDetectorsStates) {
  ASSERT_TRUE(monitor_.Start().ok());
  for (int i = 0; i < 3; ++i) Poll(3e-4);
  std::vector<LinkQualityEntry> entries = ethtool_->ReportEntries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(entries[0].readings.recorded);
  ASSERT_TRUE(entries[0].quality);
  EXPECT_EQ(entries[0].quality->state, LinkQualityState::kFailing);
  nlohmann::ordered_json json = LinkQualityToJson(entries);
  EXPECT_EQ(json[0]["state"], "failing");
  EXPECT_EQ(json[0]["source"], "recording");
  EXPECT_NE(RenderLinkQualityText(entries).find("ens1f0np0: failing, pre-FEC BER 3.0e-04"),
            std::string::npos)
      << RenderLinkQualityText(entries);
}

TEST_F(EthtoolComponentTest, OneModuleIsReadPerSnapshot) {
  // A second recorded rail: its module waits for the next snapshot.
  source_.node.devices.push_back(RoceDevice("mlx5_1", "ens2f0np0", {}));
  const std::string other = "/host/rocewatch/ethtool/ens2f0np0/";
  fs_.AddFile(other + "link_state", "link: yes\n");
  for (const auto& [address, bytes] : Sff8636Pages(HealthyQuadLanes()))
    fs_.AddFile(other + "module/" + ModulePageFileName(address), bytes);
  ASSERT_TRUE(monitor_.Start().ok());
  const std::string first = "rocewatch_module_temperature_celsius{netdev=\"ens1f0np0\"}";
  const std::string second = "rocewatch_module_temperature_celsius{netdev=\"ens2f0np0\"}";
  EXPECT_TRUE(Sample(first).has_value());
  EXPECT_FALSE(Sample(second).has_value());
  Poll(1e-8);
  EXPECT_TRUE(Sample(first).has_value());
  EXPECT_TRUE(Sample(second).has_value());
}

}  // namespace
}  // namespace rocewatch
