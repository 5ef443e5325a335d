// What diagnose takes from the daemon's state: link-quality figures per netdev and the traffic
// detector's view per port, here from the /metrics of a daemon older than GET /api/v1/state (the
// fallback, diagnose/daemon_state_from_metrics.h), as such a daemon serves it.
#include "diagnose/daemon_view.h"

#include <gtest/gtest.h>

#include "diagnose/daemon_state_from_metrics.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

const char* kExposition =
    "# TYPE rocewatch_link_quality_state gauge\n"
    "rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"ok\"} 0\n"
    "rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"degraded\"} 1\n"
    "rocewatch_link_quality_state{netdev=\"ens1f0np0\",state=\"failing\"} 0\n"
    "rocewatch_netdev_pre_fec_ber{netdev=\"ens1f0np0\"} 3e-05\n"
    "rocewatch_netdev_pfc_paused_ratio{netdev=\"ens1f0np0\",priority=\"3\",direction=\"tx\"} 0.9\n"
    "rocewatch_netdev_pfc_storm{netdev=\"ens1f0np0\",priority=\"3\",direction=\"tx\"} 1\n"
    "rocewatch_netdev_pfc_storm{netdev=\"ens1f0np0\",priority=\"3\",direction=\"rx\"} 0\n"
    "rocewatch_traffic_state{device=\"mlx5_0\",port=\"1\",state=\"normal\"} 1\n"
    "rocewatch_traffic_state{device=\"mlx5_0\",port=\"1\",state=\"collapsed\"} 0\n"
    "rocewatch_traffic_state{device=\"mlx5_1\",port=\"1\",state=\"normal\"} 0\n"
    "rocewatch_traffic_state{device=\"mlx5_1\",port=\"1\",state=\"collapsed\"} 1\n"
    "rocewatch_traffic_baseline_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 2000000000\n"
    "rocewatch_traffic_baseline_bytes_per_second{device=\"mlx5_1\",port=\"1\"} 1900000000\n"
    "rocewatch_traffic_collapsed_node_wide{device=\"mlx5_1\",port=\"1\"} 0\n"
    "rocewatch_port_transmit_bytes_total{device=\"mlx5_0\",port=\"1\"} 4000000000\n"
    "rocewatch_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"} 8000000000\n"
    "rocewatch_last_poll_timestamp_seconds 1796112000.5\n";

DaemonView ViewOf(const std::string& text) {
  DaemonView view;
  view.metrics = *ParseExposition(text);
  view.state = DaemonStateFromMetrics(view.metrics);
  view.findings.findings.push_back({Severity::kWarning, "link_quality_degraded", "ens1f0np0",
                                    "link quality degraded: pre-FEC BER 3.0e-05 (degraded at "
                                    "1.0e-05)",
                                    ""});
  return view;
}

TEST(DaemonView, EntriesWithoutTheirOwnWindowTakeTheDaemonsLinkFigures) {
  DaemonView view = ViewOf(kExposition);
  EXPECT_EQ(NetdevsWithDaemonLinkFigures(*view.state), std::set<std::string>{"ens1f0np0"});
  std::vector<LinkQualityEntry> entries(2);
  entries[0].netdev = "ens1f0np0";
  entries[1].netdev = "ens2f0np0";  // the daemon says nothing about it
  TakeDaemonLinkFigures(view, entries);
  ASSERT_EQ(entries[0].figures, LinkFiguresSource::kDaemon);
  EXPECT_EQ(entries[0].quality->state, LinkQualityState::kDegraded);
  EXPECT_DOUBLE_EQ(*entries[0].quality->pre_fec_ber, 3e-5);
  EXPECT_EQ(entries[0].quality->reason, "pre-FEC BER 3.0e-05 (degraded at 1.0e-05)");
  ASSERT_EQ(entries[0].pfc.size(), 2u);
  for (const auto& [key, status] : entries[0].pfc) {
    EXPECT_EQ(key.priority, 3);
    EXPECT_EQ(status.storm, key.direction == PauseDirection::kTx);
  }
  EXPECT_EQ(entries[1].figures, LinkFiguresSource::kNone);
  const std::string text = RenderLinkQualityText(entries);
  EXPECT_NE(text.find("ens1f0np0: degraded, pre-FEC BER 3.0e-05"), std::string::npos) << text;
  EXPECT_NE(text.find("[the daemon's view]"), std::string::npos) << text;
  EXPECT_NE(text.find("PFC priority 3 tx: paused 90% (storm)"), std::string::npos) << text;
  EXPECT_EQ(LinkQualityToJson(entries)[0]["window"]["source"], "daemon");
}

TEST(DaemonView, ThisRunsOwnWindowAndAnotherHostsDaemonAreKept) {
  std::vector<LinkQualityEntry> entries(1);
  entries[0].netdev = "ens1f0np0";
  entries[0].figures = LinkFiguresSource::kSampled;
  entries[0].quality.emplace();
  TakeDaemonLinkFigures(ViewOf(kExposition), entries);
  EXPECT_EQ(entries[0].figures, LinkFiguresSource::kSampled);
  EXPECT_EQ(entries[0].quality->state, LinkQualityState::kOk);

  DaemonView other = ViewOf(kExposition);
  other.other_host = true;
  std::vector<LinkQualityEntry> fresh(1);
  fresh[0].netdev = "ens1f0np0";
  TakeDaemonLinkFigures(other, fresh);
  EXPECT_EQ(fresh[0].figures, LinkFiguresSource::kNone);
}

TEST(DaemonView, TheTrafficViewCarriesBaselinesStatesAndDatedCounters) {
  const MonoTime now = MonoTime{} + std::chrono::hours(1);
  std::map<PortKey, PortTrafficResume> ports =
      DaemonTrafficView(DaemonStateFromMetrics(*ParseExposition(kExposition)), now, 1796112001.0);
  ASSERT_EQ(ports.size(), 2u);
  const PortTrafficResume& rail0 = ports.at({"mlx5_0", 1});
  EXPECT_EQ(rail0.state, TrafficState::kNormal);
  EXPECT_DOUBLE_EQ(*rail0.baseline, 2e9);
  EXPECT_EQ(*rail0.transmit_bytes, 4000000000u);
  EXPECT_EQ(*rail0.receive_bytes, 8000000000u);
  EXPECT_EQ(rail0.counters_at, now - std::chrono::milliseconds(500));  // polled 0.5 s ago
  const PortTrafficResume& rail1 = ports.at({"mlx5_1", 1});
  EXPECT_EQ(rail1.state, TrafficState::kCollapsed);
  EXPECT_FALSE(rail1.node_wide);
  EXPECT_FALSE(rail1.transmit_bytes.has_value());
}

TEST(DaemonView, AnExpositionWithoutTheFamiliesGivesNothing) {
  const DaemonState state = DaemonStateFromMetrics(*ParseExposition("up 1\n"));
  EXPECT_TRUE(DaemonTrafficView(state, MonoTime{}, 0).empty());
  EXPECT_TRUE(NetdevsWithDaemonLinkFigures(state).empty());
}

}  // namespace
}  // namespace rocewatch

namespace rocewatch {
namespace {

// A live daemon's state at 1000 s that reads modules every 60 s.
DaemonView ReadingModules(std::optional<double> ens1_read_at, std::optional<double> ens2_read_at) {
  DaemonView view;
  view.state.emplace();
  view.state->generated_at_unix = 1000;
  view.state->optics_interval_seconds = 60;
  view.state->netdevs = {{"ens1f0np0", "ok"}, {"ens2f0np0", "ok"}};
  view.state->netdevs[0].optics_read_at_unix = ens1_read_at;
  view.state->netdevs[1].optics_read_at_unix = ens2_read_at;
  return view;
}

TEST(DaemonOptics, ModulesTheLiveDaemonReadLatelyAreItsOwn) {
  const DaemonOptics optics = DaemonOpticsOf(ReadingModules(988, std::nullopt));
  EXPECT_FALSE(optics.off);
  // ens2f0np0: not read by the daemon yet, so this run reads it.
  ASSERT_EQ(optics.read.size(), 1u);
  EXPECT_EQ(optics.read.at("ens1f0np0"), seconds(12));
}

TEST(DaemonOptics, TheDaemonsOffSwitchTurnsThisRunsReadsOffToo) {
  DaemonView off = ReadingModules(std::nullopt, std::nullopt);
  off.state->optics_interval_seconds = 0;  // --optics-interval 0
  EXPECT_TRUE(DaemonOpticsOf(off).off);
  DaemonView older = ReadingModules(std::nullopt, std::nullopt);
  older.state->optics_interval_seconds.reset();  // a daemon that predates the field
  EXPECT_FALSE(DaemonOpticsOf(older).off);
  EXPECT_TRUE(DaemonOpticsOf(older).read.empty());
}

TEST(DaemonOptics, AStaleReadARecordingOrAnotherHostLeaveTheReadsToThisRun) {
  EXPECT_TRUE(DaemonOpticsOf(ReadingModules(1000 - 121, 2000)).read.empty());
  DaemonView recorded = ReadingModules(990, 990);
  recorded.recorded = true;  // a bundle's pages cost no I2C read
  EXPECT_TRUE(DaemonOpticsOf(recorded).read.empty());
  DaemonView from_metrics = ReadingModules(990, 990);
  from_metrics.state_source = "/metrics";  // a daemon older than /api/v1/state
  EXPECT_TRUE(DaemonOpticsOf(from_metrics).read.empty());
  DaemonView other = ReadingModules(990, 990);
  other.other_host = true;
  EXPECT_TRUE(DaemonOpticsOf(other).read.empty());
  EXPECT_FALSE(DaemonOpticsOf(other).off);
}

}  // namespace
}  // namespace rocewatch
