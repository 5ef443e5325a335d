// The real ethtool paths on a veth pair in a namespace of the test's own: the GSTRINGS/GSTATS
// ioctl (values that move with traffic sent across the pair), ethtool netlink STATS_GET and
// LINKSTATE_GET, which veth answers, and FEC_GET, PAUSE_GET and MODULE_EEPROM_GET, which it
// refuses with EOPNOTSUPP (a state, not an error).

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/ethtool.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "ethtool/ethtool_poller.h"
#include "ethtool/ioctl_driver_statistics_source.h"
#include "ethtool/libnl_ethtool_source.h"
#include "link_quality/link_quality_snapshot.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/net_namespace.h"

namespace rocewatch {
namespace {

constexpr const char* kRnic = "rnic0";
constexpr const char* kVethPeer = "peer0";

// One ethtool "set one value" ioctl (ETHTOOL_SGRO, ETHTOOL_STSO); needs CAP_NET_ADMIN.
bool SetEthtoolValue(const char* netdev, uint32_t command, uint32_t value) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ethtool_value request{};
  request.cmd = command;
  request.data = value;
  ifreq ifr{};
  std::strncpy(ifr.ifr_name, netdev, IFNAMSIZ - 1);
  ifr.ifr_data = reinterpret_cast<char*>(&request);
  const bool ok = ioctl(fd, SIOCETHTOOL, &ifr) == 0;
  close(fd);
  return ok;
}

// Sends `count` broadcast frames of an experimental ethertype out of `netdev`.
int SendFrames(const char* netdev, int count) {
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
  if (fd < 0) return -1;
  sockaddr_ll to{};
  to.sll_family = AF_PACKET;
  to.sll_ifindex = static_cast<int>(if_nametoindex(netdev));
  to.sll_halen = ETH_ALEN;
  std::memset(to.sll_addr, 0xff, ETH_ALEN);
  unsigned char frame[128] = {};
  std::memset(frame, 0xff, ETH_ALEN);
  frame[12] = 0x88;  // 0x88b5: IEEE 802 local experimental
  frame[13] = 0xb5;
  int sent = 0;
  for (int i = 0; i < count; ++i)
    if (sendto(fd, frame, sizeof(frame), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to)) > 0)
      ++sent;
  close(fd);
  return sent;
}

class EthtoolVethTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ns = NetNamespace::Create("eth");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(*ns);
    ASSERT_TRUE(ns_->AddVethPair(kRnic, kVethPeer).ok());
    Status opened_ioctl, opened_netlink;
    ASSERT_TRUE(ns_->RunInside([&] {
                     opened_ioctl = statistics_.Open();
                     opened_netlink = netlink_.Open();
                   })
                    .ok());
    ASSERT_TRUE(opened_ioctl.ok()) << opened_ioctl.ToString();
    ASSERT_TRUE(opened_netlink.ok()) << opened_netlink.ToString();
  }

  uint64_t Counter(const std::string& netdev, const std::string& name) {
    StatusOr<std::optional<DriverStatistics>> s = statistics_.ReadDriverStatistics(netdev);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    if (!s.ok() || !*s) return UINT64_MAX;
    return (*s)->Find(name).value_or(UINT64_MAX);
  }

  std::unique_ptr<NetNamespace> ns_;
  IoctlDriverStatisticsSource statistics_;
  LibnlEthtoolSource netlink_;
};

TEST_F(EthtoolVethTest, DriverStatisticsAreTheDriversOwnNamesAndValues) {
  StatusOr<std::optional<DriverStatistics>> s = statistics_.ReadDriverStatistics(kRnic);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_TRUE(*s);
  ASSERT_FALSE((*s)->counters.empty());
  EXPECT_EQ((*s)->counters.front().first, "peer_ifindex");
  unsigned peer_index = 0;
  ASSERT_TRUE(ns_->RunInside([&] { peer_index = if_nametoindex(kVethPeer); }).ok());
  EXPECT_EQ((*s)->Find("peer_ifindex"), peer_index);
}

TEST_F(EthtoolVethTest, DriverStatisticsMoveWithTrafficSentAcrossThePair) {
  // A quiet pair: without IPv6 (and without addresses) the kernel sends nothing of its own on it,
  // so the frames counted are exactly ours.
  ASSERT_EQ(RunShell(ns_->ExecPrefix() + "sysctl -qw net.ipv6.conf.default.disable_ipv6=1"), 0);
  ASSERT_TRUE(ns_->AddVethPair("quiet0", "quiet1").ok());
  // veth counts received frames per queue when it runs NAPI: GRO on the receiver, no TSO on the
  // sender.
  bool configured = false;
  ASSERT_TRUE(ns_->RunInside([&] {
                   configured = SetEthtoolValue("quiet1", ETHTOOL_SGRO, 1) &&
                                SetEthtoolValue("quiet0", ETHTOOL_STSO, 0);
                 })
                  .ok());
  ASSERT_TRUE(configured);
  const std::string counter = "rx_queue_0_xdp_packets";
  const uint64_t before = Counter("quiet1", counter);
  const uint64_t bytes_before = Counter("quiet1", "rx_queue_0_xdp_bytes");
  ASSERT_NE(before, UINT64_MAX);
  int sent = 0;
  ASSERT_TRUE(ns_->RunInside([&] { sent = SendFrames("quiet0", 25); }).ok());
  ASSERT_EQ(sent, 25);
  // NAPI delivers asynchronously: wait for the count (bounded), never a fixed sleep.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  uint64_t after = before;
  while ((after = Counter("quiet1", counter)) < before + 25 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  EXPECT_EQ(after, before + 25);
  // Bytes as the receive path sees them: the frames without their Ethernet header.
  EXPECT_EQ(Counter("quiet1", "rx_queue_0_xdp_bytes") - bytes_before, 25u * (128 - ETH_HLEN));
}

TEST_F(EthtoolVethTest, StandardStatisticsAndLinkStateAnswer) {
  StatusOr<std::optional<StandardStatistics>> standard = netlink_.ReadStandardStatistics(kRnic);
  ASSERT_TRUE(standard.ok()) << standard.status().ToString();
  EXPECT_TRUE(*standard);  // answered (veth has no standard counters: the groups are empty)

  StatusOr<std::optional<LinkStateReading>> link = netlink_.ReadLinkState(kRnic);
  ASSERT_TRUE(link.ok()) << link.status().ToString();
  ASSERT_TRUE(*link);
  EXPECT_EQ((*link)->link_up, true);
  ASSERT_TRUE(ns_->Ip(std::string("link set ") + kVethPeer + " down").ok());
  link = netlink_.ReadLinkState(kRnic);
  ASSERT_TRUE(link.ok() && *link);
  EXPECT_EQ((*link)->link_up, false);
  EXPECT_EQ(DescribeLinkExtState(**link), "");  // veth gives no reason
}

TEST_F(EthtoolVethTest, FecPauseAndModuleAreUnsupportedNotErrors) {
  StatusOr<std::optional<FecReading>> fec = netlink_.ReadFec(kRnic);
  ASSERT_TRUE(fec.ok()) << fec.status().ToString();
  EXPECT_FALSE(*fec);
  StatusOr<std::optional<PauseReading>> pause = netlink_.ReadPause(kRnic);
  ASSERT_TRUE(pause.ok()) << pause.status().ToString();
  EXPECT_FALSE(*pause);
  StatusOr<std::optional<std::string>> page =
      netlink_.ReadModulePage(kRnic, ModulePageAddress{0, 0, 0, 128});
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_FALSE(*page);
}

TEST_F(EthtoolVethTest, AMissingNetdevIsNotFoundOnBothPaths) {
  EXPECT_EQ(statistics_.ReadDriverStatistics("nosuch0").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(netlink_.ReadFec("nosuch0").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(netlink_.ReadLinkState("nosuch0").status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(ns_->Ip(std::string("link del ") + kRnic).ok());
  EXPECT_EQ(statistics_.ReadDriverStatistics(kRnic).status().code(), StatusCode::kNotFound);
}

TEST_F(EthtoolVethTest, PollerRecordsWhatEachRequestAnswered) {
  FakeFileSystem fs;
  EthtoolPoller poller(fs, "/", "/sys", &statistics_, &netlink_);
  std::map<std::string, NetdevEthtool> polled = poller.Poll({kRnic, "nosuch0"});
  const NetdevEthtool& rnic = polled.at(kRnic);
  EXPECT_TRUE(rnic.present);
  EXPECT_TRUE(rnic.errors.empty());
  EXPECT_EQ(rnic.outcomes.at("statistics"), RequestOutcome::kAnswered);
  EXPECT_EQ(rnic.outcomes.at("standard_statistics"), RequestOutcome::kAnswered);
  EXPECT_EQ(rnic.outcomes.at("link_state"), RequestOutcome::kAnswered);
  EXPECT_EQ(rnic.outcomes.at("fec"), RequestOutcome::kUnsupported);
  EXPECT_EQ(rnic.outcomes.at("pause"), RequestOutcome::kUnsupported);
  EXPECT_FALSE(polled.at("nosuch0").present);
  ModuleOutcome module = poller.PollModule(kRnic);
  EXPECT_TRUE(module.unsupported);
  EXPECT_TRUE(module.error.empty());
}

// diagnose's one-shot look on veth: it answers statistics but has no FEC, PHY error or pause
// counter to rate and refuses FEC, PAUSE and the module: no wait, state unknown, what the
// driver refused said, no finding.
TEST_F(EthtoolVethTest, TheOneShotLookDoesNotWaitForALinkWithNothingToRate) {
  FakeFileSystem fs;
  FakeClock clock;
  EthtoolPoller poller(fs, "/", "/sys", &statistics_, &netlink_);
  bool waited = false;
  LinkQualityLook look = LookAtLinkQuality(
      poller, {kRnic}, clock, [&](Duration) { waited = true; }, LinkQualityLookOptions{});
  EXPECT_FALSE(waited);
  ASSERT_EQ(look.entries.size(), 1u);
  EXPECT_EQ(look.entries[0].figures, LinkFiguresSource::kNone);
  EXPECT_TRUE(look.findings.empty());
  nlohmann::ordered_json json = LinkQualityToJson(look.entries)[0];
  EXPECT_EQ(json["state"], "unknown");
  EXPECT_EQ(json["source"], "kernel");
  EXPECT_EQ(json["requests"]["fec"], "unsupported");
  EXPECT_EQ(json["requests"]["statistics"], "answered");
  EXPECT_EQ(json["module"], nullptr);  // refused: no module access, not an error
  const std::string text = RenderLinkQualityText(look.entries);
  EXPECT_NE(text.find("rnic0: unknown  [the driver reports no FEC, PHY error or pause-duration "
                      "counter]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("not supported by the driver: fec, pause"), std::string::npos) << text;
}

}  // namespace
}  // namespace rocewatch
