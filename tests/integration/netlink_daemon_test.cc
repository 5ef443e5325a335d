// The netlink scenarios through the real daemon: `rocewatch run` inside a test-owned network
// namespace, on a fixture sysfs whose only port rides on the veth rnic0 (so rnic0 is an RNIC),
// checked by scraping /metrics on loopback inside that namespace.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/net_namespace.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class NetlinkDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ns = NetNamespace::Create("nld");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(*ns);
    ASSERT_TRUE(ns_->AddVethPair("rnic0", "peer0").ok());
    ASSERT_TRUE(ns_->Ip("addr add 10.77.0.1/24 dev rnic0").ok());
    sysfs_ = dir_.path() + "/sys";
    ASSERT_TRUE(WriteSysfsFixture(sysfs_, {RoceDevice("mlx5_0", "rnic0", "0c:42:a1:5e:00:01",
                                                      {"10.77.0.1/24"}, 0, 16)})
                    .ok());
    // The daemon's host root is the test's directory: its sysfs, and a procfs of no process (the
    // machine's processes are not this test's world).
    std::filesystem::create_directories(dir_.path() + "/proc");
  }
  void TearDown() override {
    if (daemon_ && HasFailure()) ADD_FAILURE() << "daemon log:\n" << daemon_->ReadLog();
    daemon_.reset();
    ns_.reset();
  }

  void StartDaemon(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--host-root",  dir_.path(), "--gid-source",       "sysfs",
                                     "--state-file", "",          "--ip-missing-grace", "2s"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto daemon = DaemonProcess::Start(args, ns_->name());
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    daemon_ = std::move(*daemon);
    ASSERT_TRUE(WaitFor("rocewatch_netdev_carrier{netdev=\"rnic0\"}", 1));
  }

  std::optional<double> Metric(const std::string& series) const {
    auto body = daemon_->Scrape();
    if (!body.ok()) return std::nullopt;
    return FindSample(*body, series);
  }
  // Scrapes until `series` has `value` (or the time is up).
  bool WaitFor(const std::string& series, double value, seconds timeout = seconds(10)) const {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (Metric(series) == value) return true;
      std::this_thread::sleep_for(milliseconds(100));
    }
    ADD_FAILURE() << series << " never became " << value
                  << " (last: " << Metric(series).value_or(-1) << ")";
    return false;
  }
  // Waits until the daemon has published a poll taken after `unix_seconds` (its loop has then run
  // every timer due before, e.g. an IP-missing deadline), instead of sleeping a fixed time.
  bool WaitForDaemonPast(double unix_seconds, seconds timeout = seconds(20)) const {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      if (Metric("rocewatch_last_poll_timestamp_seconds").value_or(0) > unix_seconds) return true;
      std::this_thread::sleep_for(milliseconds(100));
    }
    ADD_FAILURE() << "the daemon published no poll after " << std::fixed << unix_seconds;
    return false;
  }
  static double UnixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void Ip(const std::string& args) {
    Status s = ns_->Ip(args);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  static constexpr const char* kFlaps = "rocewatch_link_flaps_total{netdev=\"rnic0\"}";
  static constexpr const char* kLost = "rocewatch_ip_lost_during_flap_total{netdev=\"rnic0\"}";
  static constexpr const char* kMissing = "rocewatch_ip_missing{netdev=\"rnic0\"}";
  static constexpr const char* kCarrier = "rocewatch_netdev_carrier{netdev=\"rnic0\"}";

  TempDir dir_;
  std::string sysfs_;
  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<DaemonProcess> daemon_;
};

TEST_F(NetlinkDaemonTest, NetworkManagerStyleFlap) {
  StartDaemon();
  Ip("link set peer0 down");
  ASSERT_TRUE(WaitFor(kCarrier, 0));
  Ip("addr del 10.77.0.1/24 dev rnic0");
  ASSERT_TRUE(WaitFor("rocewatch_netdev_addresses{netdev=\"rnic0\",family=\"ipv4\"}", 0));
  Ip("link set peer0 up");
  ASSERT_TRUE(WaitFor(kCarrier, 1));
  Ip("addr add 10.77.0.1/24 dev rnic0");
  ASSERT_TRUE(WaitFor("rocewatch_netdev_addresses{netdev=\"rnic0\",family=\"ipv4\"}", 1));
  ASSERT_TRUE(WaitForDaemonPast(UnixNow() + 2.0));  // past the 2 s grace after carrier returned
  EXPECT_EQ(Metric(kFlaps), 1);
  EXPECT_EQ(Metric(kLost), 1);
  EXPECT_EQ(Metric(kMissing), 0);
  EXPECT_GE(Metric("rocewatch_netdev_carrier_changes_total{netdev=\"rnic0\"}").value_or(0), 2);
}

TEST_F(NetlinkDaemonTest, IfupdownStyleFlap) {
  StartDaemon();
  Ip("link set peer0 down");
  ASSERT_TRUE(WaitFor(kCarrier, 0));
  Ip("link set peer0 up");
  ASSERT_TRUE(WaitFor(kFlaps, 1));
  ASSERT_TRUE(WaitForDaemonPast(UnixNow() + 2.0));  // past the 2 s grace
  EXPECT_EQ(Metric(kLost), 0);
  EXPECT_EQ(Metric(kMissing), 0);
}

TEST_F(NetlinkDaemonTest, AddressThatNeverReturnsIsMissing) {
  StartDaemon();
  Ip("link set peer0 down");
  ASSERT_TRUE(WaitFor(kCarrier, 0));
  Ip("addr del 10.77.0.1/24 dev rnic0");
  Ip("link set peer0 up");
  EXPECT_TRUE(WaitFor(kMissing, 1));
  EXPECT_EQ(Metric(kLost), 1);
}

TEST_F(NetlinkDaemonTest, OverrunStormEndsInTheRightStateWithACountedResync) {
  StartDaemon({"--netlink-receive-buffer", "4096"});
  std::vector<std::string> commands;
  for (int i = 0; i < 3000; ++i)
    commands.push_back("addr add 10.78." + std::to_string(i / 250) + "." +
                       std::to_string(i % 250 + 1) + "/32 dev rnic0");
  for (int i = 1; i < 3000; i += 2)
    commands.push_back("addr del 10.78." + std::to_string(i / 250) + "." +
                       std::to_string(i % 250 + 1) + "/32 dev rnic0");
  ASSERT_TRUE(ns_->IpBatch(commands).ok());
  EXPECT_TRUE(
      WaitFor("rocewatch_netdev_addresses{netdev=\"rnic0\",family=\"ipv4\"}", 1501, seconds(30)));
  EXPECT_GE(Metric("rocewatch_netlink_resyncs_total").value_or(0), 1);
  EXPECT_EQ(Metric(kLost), 0);
}

TEST_F(NetlinkDaemonTest, PolicyRuleDeletedIsDetected) {
  Ip("rule add from 10.77.0.1 lookup 100 priority 1000");
  Ip("route add default dev rnic0 table 100");
  const double started = UnixNow();
  StartDaemon();
  ASSERT_TRUE(WaitForDaemonPast(started + 6.0));  // the rule's address settles (5 s)
  EXPECT_EQ(Metric("rocewatch_policy_rules_missing{netdev=\"rnic0\"}"), 0);
  Ip("rule del from 10.77.0.1 lookup 100 priority 1000");
  EXPECT_TRUE(WaitFor("rocewatch_policy_rules_missing{netdev=\"rnic0\"}", 1));
}

}  // namespace
}  // namespace rocewatch
