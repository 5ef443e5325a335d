// Each rail's LLDP neighbor through the real daemon: `rocewatch run` inside a test-owned network
// namespace, on a fixture sysfs whose RoCE port rides on the veth rnic0, with Debian's lldpd on
// the peer end peer0 as the leaf switch. Needs root and lldpd (skips without).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/lldpd_switch.h"
#include "support/net_namespace.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

class LldpDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    auto ns = NetNamespace::Create("lldpd");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(*ns);
    ASSERT_TRUE(ns_->AddVethPair("rnic0", "peer0").ok());
    ASSERT_TRUE(ns_->Ip("link set peer0 address 02:00:00:00:00:07").ok());
    sysfs_ = dir_.path() + "/sys";
    ASSERT_TRUE(WriteSysfsFixture(sysfs_, {RoceDevice("mlx5_0", "rnic0", "0c:42:a1:5e:00:01",
                                                      {"10.77.0.1/24"}, 0, 16)})
                    .ok());
  }
  void TearDown() override {
    if (daemon_ && HasFailure()) ADD_FAILURE() << "daemon log:\n" << daemon_->ReadLog();
    daemon_.reset();
    lldpd_.reset();
    ns_.reset();
  }
  // Scrapes until the exposition has a line containing every one of `parts` (or time is up).
  bool WaitForLine(const std::vector<std::string>& parts, seconds timeout = seconds(15)) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      StatusOr<std::string> body = daemon_->Scrape();
      if (body.ok()) {
        std::istringstream in(*body);
        for (std::string line; std::getline(in, line);) {
          bool all = true;
          for (const std::string& p : parts) all = all && line.find(p) != std::string::npos;
          if (all) return true;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  TempDir dir_;
  std::string sysfs_;
  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<LldpdSwitch> lldpd_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(LldpDaemonTest, TheSwitchNameAndPortAndItsPfcAreExported) {
  auto lldpd =
      LldpdSwitch::Start(ns_->name(), "peer0", {.hostname = "leaf-07", .pfc_enabled = 0x08});
  if (!lldpd.ok()) GTEST_SKIP() << lldpd.status().ToString();
  lldpd_ = std::move(*lldpd);
  auto daemon = DaemonProcess::Start(
      {"--sysfs-root", sysfs_, "--gid-source", "sysfs", "--state-file", ""}, ns_->name());
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  daemon_ = std::move(*daemon);
  EXPECT_TRUE(WaitForLine({"rocewatch_rail_neighbor_info{", "device=\"mlx5_0\"", "port=\"1\"",
                           "netdev=\"rnic0\"", "chassis_id=\"02:00:00:00:00:07\"",
                           "port_id=\"peer0\"", "system_name=\"leaf-07\"", "} 1"}));
  EXPECT_TRUE(WaitForLine(
      {"rocewatch_rail_neighbor_pfc_enabled{", "netdev=\"rnic0\"", "priority=\"3\"", "} 1"}));
  EXPECT_TRUE(WaitForLine({"rocewatch_lldp_receiving{netdev=\"rnic0\"} 1"}));
  EXPECT_TRUE(WaitForLine({"rocewatch_lldp_frames_invalid_total{netdev=\"rnic0\"} 0"}));
  // Recabled: another switch on the same rail.
  lldpd_.reset();
  ASSERT_TRUE(ns_->Ip("link set peer0 address 02:00:00:00:00:12").ok());
  auto leaf12 = LldpdSwitch::Start(ns_->name(), "peer0",
                                   {.hostname = "leaf-12", .pfc_enabled = std::nullopt});
  ASSERT_TRUE(leaf12.ok()) << leaf12.status().ToString();
  lldpd_ = std::move(*leaf12);
  EXPECT_TRUE(WaitForLine({"rocewatch_rail_neighbor_info{", "system_name=\"leaf-12\"", "} 1"}));
  auto findings = daemon_->Get("/api/v1/findings");
  ASSERT_TRUE(findings.ok());
  EXPECT_NE(findings->body.find("rnic0: LLDP neighbor changed from leaf-07 port peer0 to leaf-12 "
                                "port peer0"),
            std::string::npos)
      << findings->body;
}

}  // namespace
}  // namespace rocewatch
