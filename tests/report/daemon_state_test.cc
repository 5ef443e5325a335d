#include "export/daemon_state.h"

#include <gtest/gtest.h>

#include "diagnose/daemon_view.h"

namespace rocewatch {
namespace {

// A node with a collapsed rail and a degraded link in a PFC storm.
DaemonState Collapsed() {
  DaemonState state;
  state.boot_id = "3f1c6a52-7e0d-4b8e-9a51-0c2d4e6f8a10";
  state.generated_at_unix = 1796113043.5;
  state.last_poll_unix = 1796113043.0;
  state.ports = {{"mlx5_0", 1, TrafficState::kCollapsed, 1.2e10, true, 123, 456},
                 {"mlx5_1", 1, TrafficState::kNormal, std::nullopt, false, std::nullopt, 7}};
  state.netdevs = {{"ens1f0np0", "degraded", 1e-9, {{3, false, 0.4, true}, {3, true, {}, false}}}};
  return state;
}

std::string Text(const DaemonState& state) { return DaemonStateToJson(state).dump(); }

// A served document with one field replaced.
std::string With(const std::string& pointer, const nlohmann::json& value) {
  nlohmann::json doc = nlohmann::json::parse(Text(Collapsed()));
  doc[nlohmann::json::json_pointer(pointer)] = value;
  return doc.dump();
}

TEST(DaemonStateTest, TypedValuesRoundTrip) {
  StatusOr<DaemonState> parsed = ParseDaemonState(Text(Collapsed()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->boot_id, "3f1c6a52-7e0d-4b8e-9a51-0c2d4e6f8a10");
  EXPECT_EQ(parsed->last_poll_unix, 1796113043.0);
  ASSERT_EQ(parsed->ports.size(), 2u);
  EXPECT_EQ(parsed->ports[0].traffic_state, TrafficState::kCollapsed);
  EXPECT_EQ(parsed->ports[0].baseline, 1.2e10);
  EXPECT_TRUE(parsed->ports[0].node_wide);
  EXPECT_EQ(parsed->ports[0].transmit_bytes, 123u);
  EXPECT_FALSE(parsed->ports[1].baseline);
  EXPECT_FALSE(parsed->ports[1].transmit_bytes);
  ASSERT_EQ(parsed->netdevs.size(), 1u);
  EXPECT_EQ(parsed->netdevs[0].link_quality, "degraded");
  EXPECT_EQ(parsed->netdevs[0].pre_fec_ber, 1e-9);
  ASSERT_EQ(parsed->netdevs[0].pfc.size(), 2u);
  EXPECT_TRUE(parsed->netdevs[0].pfc[0].storm);
  EXPECT_EQ(parsed->netdevs[0].pfc[0].paused_fraction, 0.4);
  EXPECT_TRUE(parsed->netdevs[0].pfc[1].transmit);
  EXPECT_FALSE(parsed->netdevs[0].pfc[1].paused_fraction);
  EXPECT_FALSE(parsed->netdevs[0].optics_read_at_unix);  // absent: the daemon reads no module
  EXPECT_FALSE(parsed->optics_interval_seconds);
}

TEST(DaemonStateTest, WhenTheDaemonReadEachModuleRoundTrips) {
  DaemonState state = Collapsed();
  state.optics_interval_seconds = 60;
  state.netdevs[0].optics_read_at_unix = 1796113020.25;
  StatusOr<DaemonState> parsed = ParseDaemonState(Text(state));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->optics_interval_seconds, 60);
  EXPECT_EQ(parsed->netdevs[0].optics_read_at_unix, 1796113020.25);
  EXPECT_FALSE(ParseDaemonState(With("/optics_interval", "60")).ok());
  EXPECT_FALSE(ParseDaemonState(With("/netdevs/0/optics_read_at", true)).ok());
}

TEST(DaemonStateTest, DiagnoseResumesTrafficFromIt) {
  const MonoTime now = MonoTime(std::chrono::seconds(1000));
  std::map<PortKey, PortTrafficResume> ports =
      DaemonTrafficView(Collapsed(), now, Collapsed().last_poll_unix + 2);
  const PortTrafficResume& port = ports.at(PortKey{"mlx5_0", 1});
  EXPECT_EQ(port.state, TrafficState::kCollapsed);
  EXPECT_EQ(port.baseline, 1.2e10);
  EXPECT_EQ(port.receive_bytes, 456u);
  EXPECT_EQ(port.counters_at, now - std::chrono::seconds(2));
  EXPECT_EQ(NetdevsWithDaemonLinkFigures(Collapsed()), std::set<std::string>{"ens1f0np0"});
}

TEST(DaemonStateTest, UnknownFieldsAreIgnored) {
  EXPECT_TRUE(ParseDaemonState(With("/consumers", {{"mlx5_0", 2}})).ok());
  EXPECT_TRUE(ParseDaemonState(With("/ports/0/future", "x")).ok());
}

TEST(DaemonStateTest, AWrongSchemaOrVersionIsOneClearLine) {
  StatusOr<DaemonState> v2 = ParseDaemonState(With("/version", 2));
  ASSERT_FALSE(v2.ok());
  EXPECT_EQ(v2.status().message(), "state document: version 2, this rocewatch reads version 1");
  StatusOr<DaemonState> other = ParseDaemonState(With("/schema", "node_exporter"));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().message(), "state document: not a rocewatch.state document");
  EXPECT_FALSE(ParseDaemonState(With("/version", "1")).ok());
  EXPECT_FALSE(ParseDaemonState(R"({"findings": []})").ok());
}

TEST(DaemonStateTest, HostileInputIsRefusedNeverACrash) {
  const std::string served = Text(Collapsed());
  for (size_t cut = 0; cut < served.size(); cut += 7)
    EXPECT_FALSE(ParseDaemonState(served.substr(0, cut)).ok()) << cut;
  for (const std::string& bad : {With("/ports/0/port", "1"),
                                 With("/ports/0/port", 0),
                                 With("/ports/0/port", 70000),
                                 With("/ports/0/port", -1),
                                 With("/ports/0/traffic_state", "melted"),
                                 With("/ports/0/baseline_bytes_per_second", "fast"),
                                 With("/ports/0/node_wide", 1),
                                 With("/ports/0/transmit_bytes", -5),
                                 With("/ports/0/transmit_bytes", 1.5),
                                 With("/ports/0/device", ""),
                                 With("/ports/0/device", std::string(300, 'x')),
                                 With("/ports", "none"),
                                 With("/ports/0", 3),
                                 With("/netdevs/0/pfc/0/priority", 8),
                                 With("/netdevs/0/pfc/0/direction", "up"),
                                 With("/netdevs/0/pfc", {{"priority", 1}}),
                                 With("/netdevs/0/pre_fec_ber", "1e-9"),
                                 With("/last_poll", "now"),
                                 std::string("[1, 2]"),
                                 std::string("null"),
                                 std::string("\xff\xfe")})
    EXPECT_FALSE(ParseDaemonState(bad).ok()) << bad;
}

TEST(DaemonStateTest, HugeListsAndDocumentsAreRefused) {
  nlohmann::json doc = nlohmann::json::parse(Text(Collapsed()));
  doc["ports"] = nlohmann::json::array();
  for (size_t i = 0; i <= kMaxDaemonStateEntries; ++i) doc["ports"].push_back(doc["netdevs"][0]);
  EXPECT_FALSE(ParseDaemonState(doc.dump()).ok());
  EXPECT_FALSE(ParseDaemonState(std::string(kMaxDaemonStateBytes + 1, ' ')).ok());
}

}  // namespace
}  // namespace rocewatch
