// `rocewatch diagnose` run in-process on a fake host (tests/support/fake_host_env.h): a fixture
// sysfs tree, an rtnetlink dump stating the rails' links and addresses, no verbs, no ethtool
// kernel interface, no kubelet. The report and the exit status follow from what the host shows.
#include "diagnose/diagnose_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fake_host_env.h"
#include "support/netlink_builders.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

class DiagnoseCommandTest : public ::testing::Test {
 protected:
  // Two rails, mlx5_0 (ens1f0np0, 10.0.0.2) and mlx5_1 (ens2f0np0, 10.0.1.2), small GID tables.
  void WriteNode(std::vector<FixtureDevice> devices) {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", devices).ok());
  }
  // The rails' netdevs in this namespace, carrier up, with these addresses.
  void Netdevs(const std::string& rail0_address, const std::string& rail1_address) {
    host_.netlink().links = {MakeLink(1, "lo", true), MakeLink(2, "ens1f0np0", true),
                             MakeLink(3, "ens2f0np0", true)};
    host_.netlink().addresses.clear();
    if (!rail0_address.empty()) host_.netlink().addresses.push_back(MakeAddress(2, rail0_address));
    if (!rail1_address.empty()) host_.netlink().addresses.push_back(MakeAddress(3, rail1_address));
  }
  // Runs `diagnose --json --daemon none --kubelet-socket none --host-root <dir>`.
  nlohmann::json Diagnose() {
    DiagnoseOptions options;
    options.common.paths = HostPaths::ForRoots(dir_.path());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.json = true;
    options.daemon.reset();
    options.consumers.kubelet_socket = "none";
    std::ostringstream out, err;
    status_ = RunDiagnose(host_.env(), options, out, err, /*out_is_terminal=*/false);
    err_ = err.str();
    return nlohmann::json::parse(out.str());
  }
  std::vector<std::pair<std::string, std::string>> Findings(const nlohmann::json& report) {
    std::vector<std::pair<std::string, std::string>> found;
    for (const auto& f : report["findings"]) found.emplace_back(f["check"], f["subject"]);
    return found;
  }

  TempDir dir_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};
  int status_ = -1;
  std::string err_;
};

TEST_F(DiagnoseCommandTest, AHealthyNodeWithItsAddressesExitsZero) {
  WriteNode(RailNode(2, 16));
  Netdevs("10.0.0.2/24", "10.0.1.2/24");
  nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 0) << err_;
  EXPECT_EQ(report["status"], "healthy");
  EXPECT_EQ(Findings(report), (std::vector<std::pair<std::string, std::string>>{}));
  ASSERT_EQ(report["netdevs"].size(), 2u);
  EXPECT_EQ(report["netdevs"][0]["name"], "ens1f0np0");
  EXPECT_EQ(report["netdevs"][0]["in_namespace"], true);
  EXPECT_EQ(report["netdevs"][0]["addresses"], nlohmann::json::array({"10.0.0.2/24"}));
  EXPECT_EQ(host_.rtnetlink_sources(), 1);  // links, addresses and rules: one netlink stack
}

TEST_F(DiagnoseCommandTest, ADriftedGidIsAHoleBelowTheMovedEntry) {
  std::vector<FixtureDevice> node = RailNode(2, 16);
  for (FixtureGid& gid : node[1].ports[0].gids)  // re-added while QPs held 2/3: now at 4/5
    if (gid.index >= 2) gid.index += 2;
  WriteNode(node);
  Netdevs("10.0.0.2/24", "10.0.1.2/24");
  nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 1);  // warnings
  // The hole it left, and its RoCE v2 IPv4 index no longer the one of the other rail.
  EXPECT_EQ(Findings(report),
            (std::vector<std::pair<std::string, std::string>>{
                {"gid_table_hole", "mlx5_1/1"}, {"roce_v2_ipv4_gid_index_differs", "mlx5_1/1"}}));
  EXPECT_EQ(report["devices"][1]["ports"][0]["gids"][2]["index"], 4);
}

TEST_F(DiagnoseCommandTest, AnAddressWithoutItsRoceV2GidIsCritical) {
  WriteNode(RailNode(2, 16));
  // 10.0.1.2 moved to 10.0.1.9: the kernel's GIDs still name the old address.
  Netdevs("10.0.0.2/24", "10.0.1.9/24");
  nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 2);
  EXPECT_EQ(report["status"], "critical");
  EXPECT_EQ(
      Findings(report),
      (std::vector<std::pair<std::string, std::string>>{{"ipv4_without_roce_v2_gid", "mlx5_1/1"}}));
}

TEST_F(DiagnoseCommandTest, AMissingAddressLeavesTheRailWithoutAddresses) {
  WriteNode(RailNode(2, 16));
  Netdevs("10.0.0.2/24", "");
  nlohmann::json report = Diagnose();
  ASSERT_EQ(report["netdevs"].size(), 2u);
  EXPECT_EQ(report["netdevs"][1]["name"], "ens2f0np0");
  EXPECT_EQ(report["netdevs"][1]["in_namespace"], true);
  EXPECT_EQ(report["netdevs"][1]["addresses"], nlohmann::json::array());
}

TEST_F(DiagnoseCommandTest, NetdevsOutsideTheNamespaceComeFromSysfs) {
  WriteNode(RailNode(2, 16));  // rtnetlink knows neither rail
  nlohmann::json report = Diagnose();
  EXPECT_EQ(status_, 0) << err_;
  ASSERT_EQ(report["netdevs"].size(), 2u);
  EXPECT_EQ(report["netdevs"][0]["in_namespace"], false);
  EXPECT_EQ(report["netdevs"][0]["carrier"], true);
}

TEST_F(DiagnoseCommandTest, AnUnreachableDaemonIsAnInfoFinding) {
  WriteNode(RailNode(2, 16));
  Netdevs("10.0.0.2/24", "10.0.1.2/24");
  DiagnoseOptions options;
  options.common.paths = HostPaths::ForRoots(dir_.path());
  options.common.gid_source = GidSourceChoice::kSysfs;
  options.json = true;
  options.consumers.kubelet_socket = "none";
  std::ostringstream out, err;
  EXPECT_EQ(RunDiagnose(host_.env(), options, out, err, false), 0);
  EXPECT_EQ(host_.fetched(), std::vector<std::string>{"127.0.0.1:9879/api/v1/findings"});
  EXPECT_NE(out.str().find("daemon_unreachable"), std::string::npos);
}

TEST_F(DiagnoseCommandTest, NoSysfsIsStatusThreeWithOneLine) {
  std::ostringstream out, err;
  DiagnoseOptions options;
  options.common.paths = HostPaths::ForRoots(dir_.path() + "/nonexistent");
  EXPECT_EQ(RunDiagnose(host_.env(), options, out, err, false), 3);
  const std::string error = err.str();
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
}

}  // namespace
}  // namespace rocewatch
