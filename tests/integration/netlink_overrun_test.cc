// A storm of address changes against a deliberately tiny receive buffer: the kernel drops
// messages (ENOBUFS), the listener re-dumps, and the final state is right.
#include <set>

#include "netlink_netns_fixture.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

TEST_F(NetlinkNetnsTest, OverrunStormEndsInTheRightStateWithACountedResync) {
  StartListener(/*receive_buffer_bytes=*/4096);
  ASSERT_TRUE(PumpUntil([&] { return Carrier(); }));
  EXPECT_LT(source_->granted_receive_buffer(), 64 * 1024);

  // 3000 addresses added, then every other one removed, while the loop does not read.
  constexpr int kAdded = 3000;
  std::vector<std::string> commands;
  std::set<std::string> expected = {"10.77.0.1"};
  for (int i = 0; i < kAdded; ++i) {
    std::string ip = "10.78." + std::to_string(i / 250) + "." + std::to_string(i % 250 + 1);
    commands.push_back("addr add " + ip + "/32 dev " + kRnic);
    if (i % 2 == 0) expected.insert(ip);
  }
  for (int i = 1; i < kAdded; i += 2)
    commands.push_back("addr del 10.78." + std::to_string(i / 250) + "." +
                       std::to_string(i % 250 + 1) + "/32 dev " + kRnic);
  ASSERT_TRUE(ns_->IpBatch(commands).ok());

  auto ipv4 = [&] {
    std::set<std::string> out;
    const std::optional<NetdevState> rnic = Rnic();
    if (!rnic) return out;
    for (const IpAddress& a : rnic->addresses)
      if (a.family == AddressFamily::kIpv4) out.insert(a.address);
    return out;
  };
  ASSERT_TRUE(PumpUntil([&] { return ipv4() == expected; }, seconds(20)))
      << "tracked " << ipv4().size() << " IPv4 addresses, expected " << expected.size();
  EXPECT_GE(listener_->resyncs(), 1u);
  EXPECT_EQ(Ips().ip_lost_total, 0u) << "no carrier flap: nothing was lost in one";
  EXPECT_EQ(Flaps().flaps_total, 0u);
  RecordProperty("resyncs", static_cast<int>(listener_->resyncs()));
  RecordProperty("messages", static_cast<int>(listener_->messages()));
}

}  // namespace
}  // namespace rocewatch
