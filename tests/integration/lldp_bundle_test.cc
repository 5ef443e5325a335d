// Each rail's far end travels in a support bundle, for real: in a network namespace of the test's
// own where the example node's first rail (ens1f0np0) is a veth whose peer sends a leaf switch's
// LLDP frames, `rocewatch collect` records the frame as <bundle>/rocewatch/lldp/ens1f0np0.pcap and
// `diagnose --host-root BUNDLE`, outside the namespace, shows the far end from that recording; a
// capture made with tcpdump itself is read the same way. Needs root (skips without).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "lldp/lldp_pcap.h"
#include "netlink/dcb_recording.h"
#include "support/daemon_process.h"
#include "support/dcb_answers.h"
#include "support/example_node.h"
#include "support/golden.h"
#include "support/http_client.h"
#include "support/lldp_frames.h"
#include "support/net_namespace.h"
#include "support/raw_frame_sender.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

class LldpBundleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root (network namespaces, AF_PACKET)";
    auto ns = NetNamespace::Create("lldpb");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(ns).value();
    ASSERT_TRUE(ns_->AddVethPair("ens1f0np0", "swp3").ok());
    ASSERT_TRUE(WriteExampleNode(host_.path()).ok());
    ASSERT_TRUE(ns_->RunInside([&] {
                     auto sender = RawFrameSender::Open("swp3");
                     ASSERT_TRUE(sender.ok()) << sender.status().ToString();
                     sender_ = std::move(sender).value();
                   })
                    .ok());
    ASSERT_NE(sender_, nullptr);
    // The switch: leaf-07 port swp3, every 50 ms while the test runs.
    switch_ = std::thread([this] {
      const std::vector<uint8_t> frame =
          LldpFrameBuilder::Leaf(7, 3).Pfc(0x08).RocePriority(3).Build();
      while (!stop_) {
        (void)sender_->Send(frame);
        std::this_thread::sleep_for(milliseconds(50));
      }
    });
  }
  void TearDown() override {
    stop_ = true;
    if (switch_.joinable()) switch_.join();
  }
  // devices[].ports[].neighbor of diagnose --json --host-root ROOT, by netdev.
  std::map<std::string, nlohmann::json> Neighbors(const std::string& root) {
    int status = -1;
    std::string out = RunCommand(std::string(ROCEWATCH_BINARY) +
                                     " diagnose --json --daemon none --link-window 0 --host-root " +
                                     root + " 2>/dev/null",
                                 &status);
    nlohmann::json report = nlohmann::json::parse(out, nullptr, false);
    std::map<std::string, nlohmann::json> neighbors;
    if (report.is_discarded()) return neighbors;
    for (const auto& device : report["devices"])
      for (const auto& port : device["ports"])
        if (port.contains("neighbor")) neighbors[port["netdevs"][0]] = port["neighbor"];
    return neighbors;
  }

  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<RawFrameSender> sender_;
  std::thread switch_;
  std::atomic<bool> stop_{false};
  TempDir host_, bundle_;
};

TEST_F(LldpBundleTest, CollectRecordsTheRailsFrameAndDiagnoseOfTheBundleShowsTheFarEnd) {
  const auto start = std::chrono::steady_clock::now();
  int status = -1;
  std::string err = RunCommand(ns_->ExecPrefix() + ROCEWATCH_BINARY + " collect --no-optics " +
                                   "--lldp-wait 20s " + bundle_.path() + " --host-root " +
                                   host_.path() + " 2>&1 >/dev/null",
                               &status);
  ASSERT_EQ(status, 0) << err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15))
      << "the wait ends once every rail that opened has a frame";
  // The seven other rails are not in the namespace: said, not waited for.
  EXPECT_NE(err.find("ens2f0np0 LLDP: "), std::string::npos) << err;
  std::ifstream in(bundle_.path() + "/rocewatch/lldp/ens1f0np0.pcap", std::ios::binary);
  std::string pcap((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(pcap);
  ASSERT_TRUE(frames.ok()) << frames.status().ToString();
  ASSERT_EQ(frames->size(), 1u);
  // The host's DCB answer for the rail: a veth's driver has none.
  std::ifstream dcb(bundle_.path() + "/rocewatch/dcb/ens1f0np0.json");
  nlohmann::json recorded = nlohmann::json::parse(dcb, nullptr, false);
  EXPECT_EQ(recorded["outcome"], "no_dcb") << recorded.dump();

  std::map<std::string, nlohmann::json> neighbors = Neighbors(bundle_.path());
  ASSERT_EQ(neighbors.size(), 8u) << "every RoCE port has the field";
  const nlohmann::json& far = neighbors["ens1f0np0"];
  ASSERT_TRUE(far.is_object()) << far.dump();
  EXPECT_EQ(far["source"], "recording");
  EXPECT_EQ(far["system_name"], "leaf-07");
  EXPECT_EQ(far["port_id"], "swp3");
  EXPECT_TRUE(neighbors["ens2f0np0"].is_null()) << "no frame yet: unknown";
  // The text says the same.
  std::string text = RunCommand(std::string(ROCEWATCH_BINARY) +
                                    " diagnose --daemon none --link-window 0 --host-root " +
                                    bundle_.path() + " 2>/dev/null",
                                &status);
  EXPECT_NE(text.find("far end: leaf-07 port swp3, from the recording"), std::string::npos) << text;
  EXPECT_NE(text.find("far end: unknown (no LLDP frame yet)"), std::string::npos) << text;
}

TEST_F(LldpBundleTest, ACaptureOfTcpdumpIsAValidRecording) {
  int status = -1;
  RunCommand("command -v tcpdump >/dev/null", &status);
  if (status != 0) GTEST_SKIP() << "tcpdump is not installed (scripts/install-deps.sh e2e)";
  const std::string dir = host_.path() + "/rocewatch/lldp";
  RunCommand("mkdir -p " + dir, &status);
  ASSERT_EQ(status, 0);
  std::string out = RunCommand(ns_->ExecPrefix() + "timeout 20 tcpdump -Z root -i ens1f0np0 -c 1 " +
                                   "-w " + dir + "/ens1f0np0.pcap ether proto 0x88cc 2>&1",
                               &status);
  ASSERT_EQ(status, 0) << out;
  const nlohmann::json far = Neighbors(host_.path())["ens1f0np0"];
  ASSERT_TRUE(far.is_object()) << far.dump();
  EXPECT_EQ(far["source"], "recording");
  EXPECT_EQ(far["system_name"], "leaf-07");
}

void WriteFile(const std::string& path, const std::string& content) {
  int status = -1;
  RunCommand("mkdir -p $(dirname " + path + ")", &status);
  std::ofstream out(path, std::ios::binary);
  out << content;
}

// A recorded host whose rail ens2f0np0 has leaf-12 port swp7 (PFC on priority 3, RoCE on 3) as
// its far end, and whose own NIC (its recorded DCB answer) enables PFC on 3 and 4.
void WriteRecordedRail(const std::string& root) {
  WriteFile(
      root + "/rocewatch/lldp/ens2f0np0.pcap",
      WriteLldpPcap(LldpFrameBuilder::Leaf(12, 7).Pfc(0x08).RocePriority(3).Build(), 1767225600));
  WriteFile(root + "/rocewatch/dcb/ens2f0np0.json",
            FormatDcbRecording("ens2f0np0", std::optional(DcbIeeeAnswer(0x18))));
}

TEST(LldpRecordingDiagnoseTest, DiagnoseOfABundleComparesTheSwitchWithTheRecordedHostPfc) {
  TempDir host;
  ASSERT_TRUE(WriteExampleNode(host.path()).ok());
  WriteRecordedRail(host.path());
  int status = -1;
  std::string out = RunCommand(std::string(ROCEWATCH_BINARY) +
                                   " diagnose --json --daemon none --link-window 0 --host-root " +
                                   host.path() + " 2>/dev/null",
                               &status);
  nlohmann::json report = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << out;
  bool found = false;
  for (const auto& f : report["findings"])
    found = found || (f["check"] == "switch_pfc_differs_from_host" && f["subject"] == "ens2f0np0");
  EXPECT_TRUE(found) << report["findings"].dump(1);
}

// No namespace needed: on a recorded host, `run` reads each rail's neighbor from its recording,
// replayed, in place of the socket (the example node's netdevs do not exist here), and the host's
// PFC from its recorded DCB answer.
TEST(LldpRecordingRunTest, RunOnARecordedHostExportsTheRecordedNeighbor) {
  TempDir host;
  ASSERT_TRUE(WriteExampleNode(host.path()).ok());
  WriteRecordedRail(host.path());
  auto daemon =
      DaemonProcess::Start({"--host-root", host.path(), "--state-file", "", "--interval", "200ms"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  std::optional<double> info;
  for (int i = 0; i < 50 && !info; ++i) {
    StatusOr<std::string> metrics = (*daemon)->Scrape();
    ASSERT_TRUE(metrics.ok()) << metrics.status().ToString();
    info = FindSample(*metrics, R"(rocewatch_rail_neighbor_info{device="mlx5_1",port="1",)"
                                R"(netdev="ens2f0np0",chassis_id="02:00:00:00:00:0c",)"
                                R"(port_id="swp7",system_name="leaf-12",port_description=""})");
    if (!info) std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_EQ(info, 1);
  StatusOr<std::string> metrics = (*daemon)->Scrape();
  ASSERT_TRUE(metrics.ok());
  EXPECT_EQ(
      FindSample(*metrics, R"(rocewatch_netdev_pfc_enabled{netdev="ens2f0np0",priority="4"})"), 1)
      << "the recorded DCB answer is the host's PFC";
  StatusOr<HttpResponse> findings =
      HttpGet("127.0.0.1", (*daemon)->port(), "/api/v1/findings", std::chrono::seconds(5));
  ASSERT_TRUE(findings.ok()) << findings.status().ToString();
  EXPECT_NE(findings->body.find("switch_pfc_differs_from_host"), std::string::npos)
      << findings->body;
  EXPECT_EQ((*daemon)->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
