#include "fabric/lldp_component.h"

#include <gtest/gtest.h>

#include "daemon/monitor.h"
#include "support/fake_clock.h"
#include "support/fake_lldp_socket.h"
#include "support/fake_snapshot_source.h"
#include "support/lldp_frames.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The daemon's Monitor (1 s polls) with the LLDP component on fake sockets: two RoCE rails,
// mlx5_0/1 on rnic0 and mlx5_1/1 on rnic1.
class LldpComponentTest : public ::testing::Test {
 protected:
  explicit LldpComponentTest(LldpOptions options = LldpOptions{})
      : snapshots_(clock_), loop_(clock_) {
    snapshots_.node.devices.push_back(RoceDevice("mlx5_0", "rnic0", {"10.0.0.2"}));
    snapshots_.node.devices.push_back(RoceDevice("mlx5_1", "rnic1", {"10.0.1.2"}));
    options.reopen_after = seconds(10);
    auto component = std::make_unique<LldpComponent>(
        options, network_.Opener(),
        [this](const std::string& netdev) -> std::optional<int> {
          auto it = mtus_.find(netdev);
          return it == mtus_.end() ? std::nullopt : std::optional<int>(it->second);
        },
        [this](const std::string& netdev) -> StatusOr<std::optional<HostPfc>> {
          ++pfc_reads_;
          if (pfc_failing_) return Status::IoError("DCB_CMD_IEEE_GET " + netdev + ": timed out");
          auto it = host_pfc_.find(netdev);
          return it == host_pfc_.end() ? std::optional<HostPfc>() : it->second;
        });
    component_ = component.get();
    monitor_.AddComponent(std::move(component));
    monitor_.SetEventObserver(
        [this](double, std::string_view what) { events_.emplace_back(what); });
  }
  void TearDown() override { monitor_.Stop(); }
  void Start() { ASSERT_TRUE(monitor_.Start().ok()); }
  void RunFor(Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(100)) {
      clock_.Advance(milliseconds(100));
      loop_.RunOnce(Duration::zero());
    }
  }
  void Send(const std::string& netdev, const LldpFrameBuilder& frame) {
    network_.wire(netdev).queued.push_back(frame.Build());
  }
  // Samples of `name` whose labels include all of `match`.
  std::vector<const prometheus::ClientMetric*> Samples(const std::string& name,
                                                       const Labels& match) {
    exposition_ = monitor_.BuildExposition();
    std::vector<const prometheus::ClientMetric*> found;
    for (const auto& family : exposition_) {
      if (family.name != name) continue;
      for (const auto& m : family.metric) {
        size_t hits = 0;
        for (const auto& [k, v] : match)
          for (const auto& l : m.label) hits += l.name == k && l.value == v;
        if (hits == match.size()) found.push_back(&m);
      }
    }
    return found;
  }
  std::optional<double> Value(const std::string& name, const Labels& match) {
    auto samples = Samples(name, match);
    if (samples.size() != 1) return std::nullopt;
    return samples[0]->counter.value + samples[0]->gauge.value;
  }

  FakeClock clock_;
  FakeSnapshotSource snapshots_;
  EventLoop loop_;
  Monitor monitor_{loop_, snapshots_, {seconds(1), milliseconds(100)}};
  FakeLldpNetwork network_;
  LldpComponent* component_ = nullptr;
  std::vector<std::string> events_;
  std::vector<prometheus::MetricFamily> exposition_;
  std::map<std::string, int> mtus_ = {{"rnic0", 9000}, {"rnic1", 9000}};
  std::map<std::string, std::optional<HostPfc>> host_pfc_;  // absent: the driver has no DCB
  bool pfc_failing_ = false;
  int pfc_reads_ = 0;
};

TEST_F(LldpComponentTest, ARailsNeighborIsExportedWithItsPfcAndFrameSize) {
  Start();
  EXPECT_EQ(network_.opens["rnic0"], 1);
  EXPECT_EQ(network_.opens["rnic1"], 1);
  Send(
      "rnic0",
      LldpFrameBuilder::Leaf(7, 3).PortDescription("Eth1/3").Pfc(0x08).RocePriority(3).MaxFrameSize(
          9216));
  RunFor(seconds(3));
  EXPECT_EQ(Value("rocewatch_rail_neighbor_info", {{"device", "mlx5_0"},
                                                   {"port", "1"},
                                                   {"netdev", "rnic0"},
                                                   {"chassis_id", "02:00:00:00:00:07"},
                                                   {"port_id", "swp3"},
                                                   {"system_name", "leaf-07"},
                                                   {"port_description", "Eth1/3"}}),
            1);
  EXPECT_TRUE(Samples("rocewatch_rail_neighbor_info", {{"netdev", "rnic1"}}).empty());
  EXPECT_EQ(Value("rocewatch_rail_neighbor_pfc_enabled", {{"netdev", "rnic0"}, {"priority", "3"}}),
            1);
  EXPECT_EQ(Value("rocewatch_rail_neighbor_pfc_enabled", {{"netdev", "rnic0"}, {"priority", "4"}}),
            0);
  EXPECT_EQ(Value("rocewatch_rail_neighbor_roce_priority", {{"netdev", "rnic0"}}), 3);
  EXPECT_EQ(Value("rocewatch_rail_neighbor_max_frame_size_bytes", {{"netdev", "rnic0"}}), 9216);
  EXPECT_NEAR(*Value("rocewatch_rail_neighbor_age_seconds", {{"netdev", "rnic0"}}), 2.1, 1.0);
  EXPECT_EQ(Value("rocewatch_lldp_frames_total", {{"netdev", "rnic0"}}), 1);
  EXPECT_EQ(Value("rocewatch_lldp_frames_total", {{"netdev", "rnic1"}}), 0);
  EXPECT_EQ(Value("rocewatch_lldp_receiving", {{"netdev", "rnic1"}}), 1);
  EXPECT_EQ(events_, std::vector<std::string>{"rnic0: LLDP neighbor leaf-07 port swp3"});
}

TEST_F(LldpComponentTest, ARecabledRailIsAWarningEvent) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3));
  RunFor(seconds(2));
  Send("rnic0", LldpFrameBuilder::Leaf(12, 7));
  RunFor(seconds(2));
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1],
            "rnic0: LLDP neighbor changed from leaf-07 port swp3 to leaf-12 port swp7 (recabled or "
            "swapped?)");
  EXPECT_EQ(Samples("rocewatch_rail_neighbor_info", {{"netdev", "rnic0"}}).size(), 1u);
}

TEST_F(LldpComponentTest, ANewSwitchAfterTheOldOneWentIsAChangeToo) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3));
  RunFor(seconds(2));
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Ttl(0));  // shutdown
  RunFor(seconds(2));
  Send("rnic0", LldpFrameBuilder::Leaf(12, 7));
  RunFor(seconds(2));
  EXPECT_EQ(events_, (std::vector<std::string>{
                         "rnic0: LLDP neighbor leaf-07 port swp3",
                         "rnic0: LLDP neighbor leaf-07 port swp3 left (TTL 0)",
                         "rnic0: LLDP neighbor changed from leaf-07 port swp3 to leaf-12 port "
                         "swp7 (recabled or swapped?)"}));
}

TEST_F(LldpComponentTest, ANeighborExpiresAfterItsTtl) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Ttl(3));
  RunFor(seconds(2));
  EXPECT_NE(component_->table().neighbor("rnic0"), nullptr);
  RunFor(seconds(3));
  EXPECT_EQ(component_->table().neighbor("rnic0"), nullptr);
  EXPECT_TRUE(Samples("rocewatch_rail_neighbor_info", {}).empty());
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1],
            "rnic0: LLDP neighbor leaf-07 port swp3 expired (no frame within its TTL "
            "of 3 s)");
}

TEST_F(LldpComponentTest, WithoutCapNetRawItCountsRetriesLaterAndSaysSo) {
  network_.refused.insert("rnic1");
  Start();
  RunFor(seconds(3));
  EXPECT_EQ(network_.opens["rnic1"], 1);
  EXPECT_EQ(Value("rocewatch_lldp_receiving", {{"netdev", "rnic1"}}), 0);
  EXPECT_EQ(Value("rocewatch_source_errors_total", {{"source", "lldp"}}), 1);
  EXPECT_TRUE(Samples("rocewatch_lldp_frames_total", {{"netdev", "rnic1"}}).empty());
  network_.refused.clear();
  RunFor(seconds(10));
  EXPECT_EQ(network_.opens["rnic1"], 2);
  EXPECT_EQ(Value("rocewatch_lldp_receiving", {{"netdev", "rnic1"}}), 1);
}

TEST_F(LldpComponentTest, AFailedSocketIsReopened) {
  Start();
  network_.wire("rnic0").failed = true;
  RunFor(seconds(2));
  EXPECT_EQ(Value("rocewatch_lldp_receiving", {{"netdev", "rnic0"}}), 0);
  network_.wire("rnic0").failed = false;
  RunFor(seconds(10));
  EXPECT_EQ(network_.opens["rnic0"], 2);
  EXPECT_EQ(Value("rocewatch_lldp_receiving", {{"netdev", "rnic0"}}), 1);
}

TEST_F(LldpComponentTest, ARailThatLeavesTheInventoryLeavesNoSeries) {
  Start();
  Send("rnic1", LldpFrameBuilder::Leaf(7, 4));
  RunFor(seconds(2));
  ASSERT_EQ(Samples("rocewatch_rail_neighbor_info", {{"netdev", "rnic1"}}).size(), 1u);
  snapshots_.node.devices.pop_back();
  RunFor(seconds(2));
  EXPECT_TRUE(Samples("rocewatch_rail_neighbor_info", {{"netdev", "rnic1"}}).empty());
  EXPECT_TRUE(Samples("rocewatch_lldp_frames_total", {{"netdev", "rnic1"}}).empty());
  EXPECT_TRUE(Samples("rocewatch_lldp_receiving", {{"netdev", "rnic1"}}).empty());
}

TEST_F(LldpComponentTest, LabelsFromTheWireAreBounded) {
  Start();
  Send("rnic0", LldpFrameBuilder().PortName("swp3").SystemName(std::string(300, 'x') + "\x1b[2J"));
  RunFor(seconds(2));
  auto samples = Samples("rocewatch_rail_neighbor_info", {{"netdev", "rnic0"}});
  ASSERT_EQ(samples.size(), 1u);
  for (const auto& l : samples[0]->label)
    if (l.name == "system_name") {
      EXPECT_EQ(l.value, std::string(128, 'x'));
    }
}

}  // namespace
}  // namespace rocewatch

namespace rocewatch {
namespace {

class LldpComponentFindingsTest : public LldpComponentTest {
 protected:
  using LldpComponentTest::LldpComponentTest;
  std::vector<std::string> Checks() const {
    std::vector<std::string> checks;
    for (const Finding& f : monitor_.CurrentFindings())
      if (f.check.find("lldp") != std::string::npos ||
          f.check.find("switch") != std::string::npos || f.check.find("rail_") != std::string::npos)
        checks.push_back(f.check + "@" + f.subject);
    return checks;
  }
};

TEST_F(LldpComponentFindingsTest, TheSwitchsPfcAndFrameSizeAreCheckedAgainstTheRail) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x10).RocePriority(3).MaxFrameSize(1518));
  Send("rnic1", LldpFrameBuilder::Leaf(7, 4).Pfc(0x08).RocePriority(3).MaxFrameSize(9216));
  RunFor(seconds(2));
  EXPECT_EQ(Checks(), (std::vector<std::string>{"switch_pfc_missing_roce_priority@rnic0",
                                                "switch_max_frame_too_small@rnic0"}));
}

TEST_F(LldpComponentFindingsTest, NoLldpOnAnyRailIsOneInfoLineAfterNinetySeconds) {
  Start();
  RunFor(seconds(60));
  EXPECT_TRUE(Checks().empty());
  RunFor(seconds(31));
  EXPECT_EQ(Checks(), std::vector<std::string>{"lldp_absent@node"});
}

// The same two rails with a rail plan: rail 0 (mlx5_0) belongs on leaf-01, rail 1 on leaf-02, each
// at the port numbered as the node.
LldpOptions PlannedOptions() {
  LldpOptions options;
  options.rail_plan = ParseRailPlan("* leaf-0{rail1} swp{n}\n").value();
  options.node_name = "gpu-042";
  return options;
}

class LldpComponentPlanTest : public LldpComponentFindingsTest {
 protected:
  LldpComponentPlanTest() : LldpComponentFindingsTest(PlannedOptions()) {}
};

TEST_F(LldpComponentPlanTest, SwappedRailsAreMiscabledAndExportedAsNotAsPlanned) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(1, 42));
  Send("rnic1", LldpFrameBuilder::Leaf(1, 43));
  RunFor(seconds(2));
  EXPECT_EQ(Value("rocewatch_rail_cabled_as_planned", {{"netdev", "rnic0"}}), 1);
  EXPECT_EQ(Value("rocewatch_rail_cabled_as_planned", {{"netdev", "rnic1"}}), 0);
  std::vector<std::string> miscabled;
  for (const Finding& f : monitor_.CurrentFindings())
    if (f.check == "rail_miscabled") miscabled.push_back(f.subject + ": " + f.message);
  ASSERT_EQ(miscabled.size(), 1u);
  EXPECT_NE(miscabled[0].find("rnic1: rnic1 (mlx5_1/1, rail 1) is cabled to leaf-01 port swp43; "
                              "the rail plan (line 1) expects switch leaf-02 port swp42"),
            std::string::npos)
      << miscabled[0];
  // Recabled where it belongs: the finding goes, the verdict turns.
  Send("rnic1", LldpFrameBuilder::Leaf(2, 42));
  RunFor(seconds(2));
  EXPECT_EQ(Value("rocewatch_rail_cabled_as_planned", {{"netdev", "rnic1"}}), 1);
  for (const Finding& f : monitor_.CurrentFindings()) EXPECT_NE(f.check, "rail_miscabled");
}

TEST_F(LldpComponentFindingsTest, TheHostsPfcIsExportedAndComparedWithTheSwitchs) {
  host_pfc_["rnic0"] = HostPfc{.enabled = 0x18, .capability = 8};
  host_pfc_["rnic1"] = HostPfc{.enabled = 0x08, .capability = 8};
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08));
  Send("rnic1", LldpFrameBuilder::Leaf(7, 4).Pfc(0x08));
  RunFor(seconds(2));
  EXPECT_EQ(Value("rocewatch_netdev_pfc_enabled", {{"netdev", "rnic0"}, {"priority", "4"}}), 1);
  EXPECT_EQ(Value("rocewatch_netdev_pfc_enabled", {{"netdev", "rnic0"}, {"priority", "2"}}), 0);
  EXPECT_EQ(Checks(), std::vector<std::string>{"switch_pfc_differs_from_host@rnic0"});
  // Read once a minute, not every poll.
  EXPECT_EQ(pfc_reads_, 2);
  // The host is fixed; a failed read later leaves it unknown, never a stale fact.
  // (The switches repeat their frames, as switches do, so the neighbors do not expire.)
  auto repeat = [this] {
    for (int i = 0; i < 2; ++i) {
      Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08));
      Send("rnic1", LldpFrameBuilder::Leaf(7, 4).Pfc(0x08));
      RunFor(kHostPfcEvery / 2);
    }
  };
  host_pfc_["rnic0"] = HostPfc{.enabled = 0x08, .capability = 8};
  repeat();
  EXPECT_TRUE(Checks().empty());
  EXPECT_EQ(pfc_reads_, 4);
  pfc_failing_ = true;
  host_pfc_["rnic0"] = HostPfc{.enabled = 0x18, .capability = 8};
  repeat();
  EXPECT_TRUE(Checks().empty());
  EXPECT_TRUE(Samples("rocewatch_netdev_pfc_enabled", {}).empty());
  EXPECT_EQ(Value("rocewatch_source_errors_total", {{"source", "dcb"}}), 2);
}

TEST_F(LldpComponentFindingsTest, FindingsFollowNewContentFromTheSameSwitchPort) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08).RocePriority(3));
  RunFor(seconds(2));
  EXPECT_TRUE(Checks().empty());
  // The switch's repeats change nothing; then its PFC profile changes under the same port.
  for (int i = 0; i < 3; ++i) {
    Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08).RocePriority(3));
    RunFor(seconds(30));
    EXPECT_TRUE(Checks().empty());
  }
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x10).RocePriority(3));
  RunFor(seconds(2));
  EXPECT_EQ(Checks(), std::vector<std::string>{"switch_pfc_missing_roce_priority@rnic0"});
  // And back.
  Send("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08).RocePriority(3));
  RunFor(seconds(2));
  EXPECT_TRUE(Checks().empty());
}

TEST_F(LldpComponentFindingsTest, WithoutAPlanNoRailHasAPlanVerdict) {
  Start();
  Send("rnic0", LldpFrameBuilder::Leaf(1, 42));
  RunFor(seconds(2));
  EXPECT_TRUE(Samples("rocewatch_rail_cabled_as_planned", {}).empty());
}

}  // namespace
}  // namespace rocewatch
