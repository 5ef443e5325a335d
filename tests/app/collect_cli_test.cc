// `rocewatch collect DIR` then `rocewatch diagnose --host-root DIR`: the real binary, on the
// bundled example node plus recorded ethtool answers of one rail (a degrading mlx5 link with an
// optics alarm): the bundle reads back as the host did.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "ethtool/ethtool_recording.h"
#include "support/example_node.h"
#include "support/golden.h"
#include "support/module_pages.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

std::string Rocewatch(const std::string& args, int* status) {
  return RunCommand(std::string(ROCEWATCH_BINARY) + " " + args + " 2>/dev/null", status);
}

class CollectCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteExampleNode(host_.path()).ok());
    const std::string dir = "rocewatch/ethtool/ens1f0np0/";
    host_.WriteFile(
        dir + "statistics",
        "NIC statistics:\n     rx_corrected_bits_phy: 12345\n     link_down_events_phy: 3\n"
        "     tx_prio3_pause_duration: 900000\n     vendor_counter_x: 1\n");
    host_.WriteFile(dir + "fec", "corrected_blocks: 100\nuncorrectable_blocks: 4\n");
    host_.WriteFile(dir + "link_state", "link: no\next_state: 5\next_substate: 0\n");
    host_.WriteFile(dir + "pause", "unsupported\n");
    ModuleValues module = HealthyQuadLanes();
    module.rx_power_watts[1] = 0.02e-3;  // below the module's 0.04 mW low alarm
    for (const auto& [address, bytes] : Sff8636Pages(module))
      host_.WriteFile(dir + "module/" + ModulePageFileName(address), bytes);
  }
  TempDir host_, bundle_;
};

// What the bundle does not carry yet: the inputs of "who uses each rail" beyond the RDMA
// processes' own files (the process namespace check, every process's descriptors, the kubelet
// socket, whose path names the host root). Those parts of the reports are left out of the
// comparison; everything else must read back identically.
nlohmann::json WithoutConsumers(const std::string& report) {
  nlohmann::json json = nlohmann::json::parse(report);
  json.erase("consumer_sources");
  for (auto& device : json["devices"]) {
    device.erase("consumers");
    device.erase("consumers_known");
  }
  auto& findings = json["findings"];
  for (auto it = findings.begin(); it != findings.end();)
    it = (*it)["check"].get<std::string>().rfind("consumer", 0) == 0 ? findings.erase(it) : it + 1;
  return json;
}

std::string WithoutConsumerSection(const std::string& text) {
  const size_t start = text.find("Who uses each rail");
  if (start == std::string::npos) return text;
  const size_t end = text.find("\n\n", start);
  return text.substr(0, start) + (end == std::string::npos ? "" : text.substr(end + 2));
}

TEST_F(CollectCliTest, DiagnoseOfTheBundleIsDiagnoseOfTheHost) {
  int status = -1;
  Rocewatch("collect " + bundle_.path() + " --host-root " + host_.path(), &status);
  ASSERT_EQ(status, 0);
  int host_status = -1, bundle_status = -1;
  const std::string host = Rocewatch("diagnose --json --host-root " + host_.path(), &host_status);
  const std::string bundle =
      Rocewatch("diagnose --json --host-root " + bundle_.path(), &bundle_status);
  EXPECT_EQ(host_status, 2);
  EXPECT_EQ(bundle_status, host_status);
  EXPECT_EQ(WithoutConsumers(bundle).dump(2), WithoutConsumers(host).dump(2));
  const std::string host_text = Rocewatch("diagnose --host-root " + host_.path(), &host_status);
  EXPECT_EQ(
      WithoutConsumerSection(Rocewatch("diagnose --host-root " + bundle_.path(), &bundle_status)),
      WithoutConsumerSection(host_text));
}

TEST_F(CollectCliTest, TheBundleCarriesTheLinkQualitySectionAndItsMetadata) {
  int status = -1;
  Rocewatch("collect " + bundle_.path() + " --host-root " + host_.path(), &status);
  ASSERT_EQ(status, 0);
  auto report =
      nlohmann::json::parse(Rocewatch("diagnose --json --host-root " + bundle_.path(), &status));
  ASSERT_EQ(report["link_quality"].size(), 1u);
  const auto& link = report["link_quality"][0];
  EXPECT_EQ(link["netdev"], "ens1f0np0");
  EXPECT_EQ(link["source"], "recording");
  EXPECT_EQ(link["fec"]["uncorrectable_blocks"], 4);
  EXPECT_EQ(link["link"]["ext_state"], "cable issue");
  EXPECT_EQ(link["requests"]["pause"], "unsupported");
  EXPECT_EQ(link["module"]["out_of_range"][0]["quantity"], "rx_power");
  std::vector<std::string> checks;
  for (const auto& f : report["findings"]) checks.push_back(f["check"]);
  EXPECT_NE(std::find(checks.begin(), checks.end(), "optics_alarm"), checks.end());
  EXPECT_NE(std::find(checks.begin(), checks.end(), "link_down_reason"), checks.end());

  auto meta = nlohmann::json::parse(
      RunCommand("cat " + bundle_.path() + "/rocewatch/bundle.json", &status));
  EXPECT_EQ(meta["rnic_netdevs"].size(), 8u);
  EXPECT_GT(meta["files"].get<int>(), 100);
  // Unknown driver counters travel with the bundle.
  EXPECT_NE(RunCommand("cat " + bundle_.path() + "/rocewatch/ethtool/ens1f0np0/statistics", &status)
                .find("vendor_counter_x: 1"),
            std::string::npos);
}

TEST_F(CollectCliTest, NoOpticsLeavesTheModulePagesOut) {
  int status = -1;
  Rocewatch("collect --no-optics " + bundle_.path() + " --host-root " + host_.path(), &status);
  ASSERT_EQ(status, 0);
  EXPECT_FALSE(std::filesystem::exists(bundle_.path() + "/rocewatch/ethtool/ens1f0np0/module"));
  EXPECT_TRUE(std::filesystem::exists(bundle_.path() + "/rocewatch/ethtool/ens1f0np0/fec"));
}

TEST(CollectCliBadInputTest, IsAOneLineErrorAndStatusThree) {
  int status = -1;
  Rocewatch("collect", &status);
  EXPECT_EQ(status, 3);
  Rocewatch("collect /proc/version/cannot", &status);
  EXPECT_EQ(status, 3);
}

}  // namespace
}  // namespace rocewatch
