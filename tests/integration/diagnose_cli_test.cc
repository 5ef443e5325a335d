// The real binary, end to end on fixture trees: `rocewatch diagnose` output and exit statuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "support/example_node.h"
#include "support/golden.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

std::string Diagnose(const std::string& args, int* status) {
  // --daemon none: the one-shot checks alone, whatever listens on this machine.
  return RunCommand(
      std::string(ROCEWATCH_BINARY) + " diagnose --daemon none " + args + " 2>/dev/null", status);
}

class DiagnoseCliTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(WriteExampleNode(dir_.path()).ok()); }
  TempDir dir_;
};

TEST_F(DiagnoseCliTest, JsonOfTheEightRailExampleMatchesTheGoldenFile) {
  int status = 0;
  // No kubelet socket in the example: "none" keeps the temporary path out of the golden file.
  std::string json = Diagnose("--json --kubelet-socket none --host-root " + dir_.path(), &status);
  EXPECT_EQ(status, 2);  // critical: the job's pinned GID index is empty on the drifted rail
  ExpectMatchesGolden(json, "example_8_rail_diagnose.json");
}

// The full human report of the example, as an engineer sees it (no terminal: no colour).
TEST_F(DiagnoseCliTest, TextOfTheEightRailExampleMatchesTheGoldenFile) {
  int status = 0;
  std::string text = Diagnose("--kubelet-socket none --host-root " + dir_.path(), &status);
  EXPECT_EQ(status, 2);
  ExpectMatchesGolden(text, "example_8_rail_diagnose.txt");
  EXPECT_EQ(text.find("\033["), std::string::npos);
}

TEST_F(DiagnoseCliTest, JsonListsExactlyTheValidEntriesOfEveryRail) {
  int status = 0;
  auto report = nlohmann::json::parse(Diagnose("--json --host-root " + dir_.path(), &status));
  ASSERT_EQ(report["devices"].size(), 8u);
  EXPECT_EQ(report["status"], "critical");
  EXPECT_EQ(report["gid_source"], "sysfs");
  for (const auto& device : report["devices"]) {
    const auto& gids = device["ports"][0]["gids"];
    ASSERT_EQ(gids.size(), 4u) << device["name"];
    bool drifted = device["name"] == "mlx5_3";
    EXPECT_EQ(gids[2]["index"], drifted ? 4 : 2);
    EXPECT_EQ(gids[3]["index"], drifted ? 5 : 3);
    EXPECT_EQ(gids[3]["type"], "roce_v2");
    for (const auto& gid : gids) EXPECT_NE(gid["gid"], "0000:0000:0000:0000:0000:0000:0000:0000");
  }
}

TEST_F(DiagnoseCliTest, JsonNamesWhoConfiguresEachRailAndWhatIsWrong) {
  int status = 0;
  auto report = nlohmann::json::parse(Diagnose("--json --host-root " + dir_.path(), &status));
  ASSERT_EQ(report["netdevs"].size(), 8u);
  for (const auto& netdev : report["netdevs"]) {
    EXPECT_EQ(netdev["managed_by"], netdev["name"] == "ens4f0np0" ? "NetworkManager" : "ifupdown")
        << netdev["name"];
  }
  std::vector<std::pair<std::string, std::string>> findings;
  for (const auto& f : report["findings"]) findings.emplace_back(f["check"], f["subject"]);
  EXPECT_EQ(findings, (std::vector<std::pair<std::string, std::string>>{
                          {"gid_table_hole", "mlx5_3/1"},
                          {"network_manager_without_ignore_carrier", "ens4f0np0"},
                          {"nccl_gid_index_without_roce_v2_gid", "pid 4242 (python3)"},
                          {"nccl_timeout_below_flap", "pid 4242 (python3)"},
                          {"roce_v2_ipv4_gid_index_differs", "mlx5_3/1"}}));
}

TEST_F(DiagnoseCliTest, AHealthyNodeExitsZero) {
  TempDir healthy;
  ASSERT_TRUE(WriteSysfsFixture(healthy.path() + "/sys", RailNode(2)).ok());
  int status = -1;
  std::string text = Diagnose("--host-root " + healthy.path(), &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(text.find("status: healthy"), std::string::npos);
}

TEST_F(DiagnoseCliTest, BadInputIsStatusThreeWithAOneLineReason) {
  for (const std::string& args :
       {std::string("--sysfs-root /nonexistent/sys"), std::string("--gid-source nonsense"),
        std::string("--watch 1x"), std::string("--no-such-flag"), std::string("--log-level loud"),
        std::string("--host-root ''")}) {
    int status = 0;
    std::string err = RunCommand(
        std::string(ROCEWATCH_BINARY) + " diagnose " + args + " 2>&1 >/dev/null", &status);
    EXPECT_EQ(status, 3) << args;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args << ": " << err;
  }
}

TEST_F(DiagnoseCliTest, HostWithoutRdmaIsHealthyAndSaysSo) {
  TempDir empty;
  empty.MakeDir("sys/class/net");
  int status = -1;
  std::string text = Diagnose("--host-root " + empty.path(), &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(text.find("No RDMA devices found"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
