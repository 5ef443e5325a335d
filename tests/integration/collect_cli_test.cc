// `rocewatch collect DIR` then `rocewatch diagnose --host-root DIR`: the real binary, on the
// bundled example node plus recorded ethtool answers of one rail (a degrading mlx5 link with an
// optics alarm): the bundle reads back as the host did.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "consumers/pod_resources_recording.h"
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

TEST_F(CollectCliTest, DiagnoseOfTheBundleIsDiagnoseOfTheHost) {
  int status = -1;
  Rocewatch("collect --daemon none " + bundle_.path() + " --host-root " + host_.path(), &status);
  ASSERT_EQ(status, 0);
  int host_status = -1, bundle_status = -1;
  const std::string host = Rocewatch("diagnose --json --host-root " + host_.path(), &host_status);
  const std::string bundle =
      Rocewatch("diagnose --json --host-root " + bundle_.path(), &bundle_status);
  EXPECT_EQ(host_status, 2);
  EXPECT_EQ(bundle_status, host_status);
  EXPECT_EQ(bundle, host);
  const std::string host_text = Rocewatch("diagnose --host-root " + host_.path(), &host_status);
  EXPECT_EQ(Rocewatch("diagnose --host-root " + bundle_.path(), &bundle_status), host_text);
  // Who uses each rail is part of what read back: the training job on every rail, seen by a
  // complete procfs scan (nothing unknown), and the kubelet's absence with the host's words.
  const nlohmann::json report = nlohmann::json::parse(bundle);
  for (const auto& device : report["devices"]) {
    EXPECT_EQ(device["consumers_known"], "present") << device["name"];
    ASSERT_FALSE(device["consumers"].empty()) << device["name"];
    EXPECT_EQ(device["consumers"][0]["pid"], 4242);
    EXPECT_EQ(device["consumers"][0]["nccl_version"], "2.18.3");
  }
  EXPECT_EQ(report["consumer_sources"]["sources"], nlohmann::json::array({"procfs"}));
  EXPECT_NE(host_text.find("Who uses each rail"), std::string::npos);
}

// The boot id and the daemon's state file travel with the bundle: diagnose of the bundle tells
// the collected host's daemon from another host's, and knows what the node had on this boot.
TEST_F(CollectCliTest, TheBootIdAndTheStateFileTravelWithTheBundle) {
  host_.WriteFile("proc/sys/kernel/random/boot_id", "0b1e5c1a-0000-4000-8000-00000000c011\n");
  host_.WriteFile("var/lib/rocewatch/state.json", "{\"format\": \"rocewatch-gid-state\"}\n");
  int status = -1;
  Rocewatch(
      "collect --daemon none --lldp-wait 0 " + bundle_.path() + " --host-root " + host_.path(),
      &status);
  ASSERT_EQ(status, 0);
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(read(bundle_.path() + "/proc/sys/kernel/random/boot_id"),
            "0b1e5c1a-0000-4000-8000-00000000c011\n");
  EXPECT_EQ(read(bundle_.path() + "/var/lib/rocewatch/state.json"),
            "{\"format\": \"rocewatch-gid-state\"}\n");
}

// A kubelet that maps an SR-IOV VF (by PCI address) to a pod: the answer is recorded in the
// bundle, and the PCI address of the device travels in its uevent.
TEST_F(CollectCliTest, TheKubeletAnswerAndThePciAddressesTravelWithTheBundle) {
  host_.WriteFile("sys/class/infiniband/mlx5_7/device/uevent",
                  "DRIVER=mlx5_core\nPCI_SLOT_NAME=0000:3b:00.2\n");
  host_.WriteFile(std::string(kPodResourcesRecordingPath),
                  R"({"podResources": [{"name": "sriov-0", "namespace": "ml", "containers": [
                       {"name": "main", "cpuIds": [3], "devices": [
                         {"resourceName": "nvidia.com/sriov_rdma", "deviceIds": ["0000:3b:00.2"]}]}]}]})");
  int status = -1;
  Rocewatch("collect --daemon none " + bundle_.path() + " --host-root " + host_.path(), &status);
  ASSERT_EQ(status, 0);
  EXPECT_TRUE(
      std::filesystem::exists(bundle_.path() + "/" + std::string(kPodResourcesRecordingPath)));
  int host_status = -1, bundle_status = -1;
  const std::string host = Rocewatch("diagnose --json --host-root " + host_.path(), &host_status);
  const std::string bundle =
      Rocewatch("diagnose --json --host-root " + bundle_.path(), &bundle_status);
  EXPECT_EQ(bundle, host);
  const nlohmann::json report = nlohmann::json::parse(bundle);
  EXPECT_EQ(report["consumer_sources"]["sources"], nlohmann::json::array({"procfs", "kubelet"}));
  bool pod_on_mlx5_7 = false;
  for (const auto& device : report["devices"])
    for (const auto& consumer : device["consumers"])
      if (consumer.value("pod", "") == "sriov-0") {
        EXPECT_EQ(device["name"], "mlx5_7");
        EXPECT_EQ(consumer["namespace"], "ml");
        pod_on_mlx5_7 = true;
      }
  EXPECT_TRUE(pod_on_mlx5_7) << bundle;
  EXPECT_EQ(Rocewatch("diagnose --host-root " + bundle_.path(), &bundle_status),
            Rocewatch("diagnose --host-root " + host_.path(), &host_status));
}

TEST_F(CollectCliTest, TheBundleCarriesTheLinkQualitySectionAndItsMetadata) {
  int status = -1;
  Rocewatch("collect --daemon none " + bundle_.path() + " --host-root " + host_.path(), &status);
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
  Rocewatch("collect --daemon none --no-optics " + bundle_.path() + " --host-root " + host_.path(),
            &status);
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
