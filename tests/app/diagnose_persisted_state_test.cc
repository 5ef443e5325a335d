// `rocewatch diagnose --daemon none` knows what a rail should have from the daemon's state file:
// a rail whose IPv4 address (and so its RoCE v2 IPv4 GID) is gone since the daemon last saw it is
// critical, on this boot only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnose/diagnose_command.h"
#include "diagnose/persisted_state_checks.h"
#include "gid_drift/gid_state_store.h"
#include "support/fake_host_env.h"
#include "support/netlink_builders.h"
#include "support/node_builder.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

class DiagnosePersistedStateTest : public ::testing::Test {
 protected:
  void Write(const std::string& relative, const std::string& content) {
    const std::filesystem::path path = dir_.path() + relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << content;
  }
  // The daemon's state of a healthy two-rail node (RailNode(2)), written on boot `boot`.
  void WriteDaemonState(const std::string& boot) {
    PersistedGidState persisted;
    persisted.boot_id = boot;
    persisted.written_at_unix_seconds = 1796112000;  // 2026-12-01T08:00:00Z
    for (int rail = 0; rail < 2; ++rail) {
      const std::string netdev = rail == 0 ? "ens1f0np0" : "ens2f0np0";
      Device device = RoceDevice("mlx5_" + std::to_string(rail), netdev,
                                 {"10.0." + std::to_string(rail) + ".2"});
      persisted.state.tables[{device.name, 1}].entries = device.ports[0].gids;
    }
    Write("/var/lib/rocewatch/state.json", SerializeGidState(persisted));
  }
  // Rail 0 lost 10.0.0.2: the kernel removed its GIDs (slots 2 and 3 read as zero).
  void WriteNodeWithRailZeroBare() {
    std::vector<FixtureDevice> node = RailNode(2, 16);
    node[0].ports[0].gids.resize(2);
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", node).ok());
    host_.netlink().links = {MakeLink(1, "lo", true), MakeLink(2, "ens1f0np0", true),
                             MakeLink(3, "ens2f0np0", true)};
    host_.netlink().addresses = {MakeAddress(3, "10.0.1.2/24")};
  }
  nlohmann::json Diagnose() {
    DiagnoseOptions options;
    options.common.paths = HostPaths::ForRoots(dir_.path());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.json = true;
    options.daemon.reset();
    options.consumers.kubelet_socket = "none";
    std::ostringstream out, err;
    status_ = RunDiagnose(host_.env(), options, out, err, /*out_is_terminal=*/false);
    return nlohmann::json::parse(out.str());
  }
  std::vector<nlohmann::json> Missing(const nlohmann::json& report) {
    std::vector<nlohmann::json> found;
    for (const auto& f : report["findings"])
      if (f["check"] == "rail_address_missing") found.push_back(f);
    return found;
  }

  TempDir dir_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};
  int status_ = -1;
};

TEST_F(DiagnosePersistedStateTest, ARailWithoutTheAddressTheDaemonKnewIsCritical) {
  Write("/proc/sys/kernel/random/boot_id", "b1\n");
  WriteDaemonState("b1");
  WriteNodeWithRailZeroBare();
  nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 2);
  std::vector<nlohmann::json> missing = Missing(report);
  ASSERT_EQ(missing.size(), 1u) << report["findings"].dump();
  EXPECT_EQ(missing[0]["severity"], "critical");
  EXPECT_EQ(missing[0]["subject"], "mlx5_0/1");
  EXPECT_THAT(missing[0]["message"].get<std::string>(),
              HasSubstr("ens1f0np0 10.0.0.2 (RoCE v2 GID at index 3), which the daemon knew on "
                        "this boot (its state file /var/lib/rocewatch/state.json, written "
                        "2026-12-01T08:00:00Z), is no longer there"));
}

TEST_F(DiagnosePersistedStateTest, AStateOfAnotherBootIsNotEvidence) {
  Write("/proc/sys/kernel/random/boot_id", "b2\n");
  WriteDaemonState("b1");
  WriteNodeWithRailZeroBare();
  EXPECT_TRUE(Missing(Diagnose()).empty());
}

TEST_F(DiagnosePersistedStateTest, AnUnparsableStateFileIsIgnored) {
  Write("/proc/sys/kernel/random/boot_id", "b1\n");
  Write("/var/lib/rocewatch/state.json", "{\"version\": 2, \"boot_id\": ");
  WriteNodeWithRailZeroBare();
  EXPECT_TRUE(Missing(Diagnose()).empty());
}

// The pure check: what it leaves alone.
TEST(PersistedStateChecks, ARailThatStillHasARoceV2Ipv4GidOrAnUnknownTableIsNotJudged) {
  PersistedGidState persisted;
  persisted.boot_id = "b1";
  Device before = RoceDevice("mlx5_0", "eth0", {"10.0.0.2"});
  persisted.state.tables[{"mlx5_0", 1}].entries = before.ports[0].gids;
  NodeSnapshot now;
  now.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.9"}));  // renumbered
  std::map<std::string, NetdevState> netdevs = {{"eth0", NetdevState{}}};
  EXPECT_TRUE(CheckAgainstPersistedState(now, netdevs, persisted, "b1", "state.json").empty());
  now.devices[0].ports[0].gids.resize(2);
  EXPECT_EQ(CheckAgainstPersistedState(now, netdevs, persisted, "b1", "state.json").size(), 1u);
  now.devices[0].ports[0].unreadable_gid_slots = {2};
  EXPECT_TRUE(CheckAgainstPersistedState(now, netdevs, persisted, "b1", "state.json").empty());
  now.devices[0].ports[0].unreadable_gid_slots.clear();
  EXPECT_TRUE(CheckAgainstPersistedState(now, {}, persisted, "b1", "state.json").empty())
      << "addresses unknown: not judged";
}

}  // namespace
}  // namespace rocewatch
