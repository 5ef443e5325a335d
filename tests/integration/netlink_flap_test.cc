// Real carrier flaps on a veth pair, observed through rtnetlink.
#include "netlink_netns_fixture.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class NetlinkFlapTest : public NetlinkNetnsTest {
 protected:
  void SetUp() override {
    NetlinkNetnsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    StartListener();
    ASSERT_TRUE(PumpUntil([&] { return Carrier() && HasAddress("10.77.0.1"); }));
  }
  void PeerDown() {
    Ip(std::string("link set ") + kPeer + " down");
    ASSERT_TRUE(PumpUntil([&] { return !Carrier(); })) << "no carrier-down event";
  }
  void PeerUp() {
    Ip(std::string("link set ") + kPeer + " up");
    ASSERT_TRUE(PumpUntil([&] { return Carrier(); })) << "no carrier-up event";
  }
};

TEST_F(NetlinkFlapTest, NetworkManagerStyleFlapLosesTheAddressWhichComesBack) {
  PeerDown();
  Ip(std::string("addr del ") + kAddress + " dev " + kRnic);
  ASSERT_TRUE(PumpUntil([&] { return !HasAddress("10.77.0.1"); }));
  PumpFor(milliseconds(300));
  PeerUp();
  Ip(std::string("addr add ") + kAddress + " dev " + kRnic);
  ASSERT_TRUE(PumpUntil([&] { return HasAddress("10.77.0.1"); }));
  PumpFor(milliseconds(1500));  // past the grace period
  EXPECT_EQ(Flaps().flaps_total, 1u);
  EXPECT_GE(Flaps().last_duration.value_or(Duration::zero()), milliseconds(300));
  EXPECT_EQ(Ips().ip_lost_total, 1u);
  EXPECT_TRUE(Ips().missing.empty());
  EXPECT_GE(Rnic()->carrier_changes, 2u);
}

TEST_F(NetlinkFlapTest, IfupdownStyleFlapKeepsTheAddress) {
  PeerDown();
  PumpFor(milliseconds(300));
  PeerUp();
  PumpFor(milliseconds(1500));
  EXPECT_EQ(Flaps().flaps_total, 1u);
  EXPECT_EQ(Ips().ip_lost_total, 0u);
  EXPECT_TRUE(Ips().missing.empty());
  EXPECT_TRUE(HasAddress("10.77.0.1"));
}

TEST_F(NetlinkFlapTest, AddressThatNeverReturnsIsMissing) {
  PeerDown();
  Ip(std::string("addr del ") + kAddress + " dev " + kRnic);
  PeerUp();
  ASSERT_TRUE(PumpUntil([&] { return !Ips().missing.empty(); }, seconds(5)));
  EXPECT_EQ(Ips().ip_lost_total, 1u);
  EXPECT_EQ(Ips().missing.begin()->first.ToString(), kAddress);
  std::vector<Finding> findings;
  listener_->health().AppendFindings(clock_.Now(), findings);
  bool critical = false;
  for (const Finding& f : findings) critical |= f.check == "ip_missing_after_flap";
  EXPECT_TRUE(critical);
}

TEST_F(NetlinkFlapTest, RenamedAwayRnicVanishesAndComesBack) {
  Ip(std::string("link set ") + kRnic + " down");
  Ip(std::string("link set ") + kRnic + " name other0");
  ASSERT_TRUE(PumpUntil([&] { return !Rnic(); }));
  Ip("link set other0 name " + std::string(kRnic));
  Ip(std::string("link set ") + kRnic + " up");
  ASSERT_TRUE(PumpUntil([&] { return Carrier(); }));
  EXPECT_TRUE(HasAddress("10.77.0.1"));
}

}  // namespace
}  // namespace rocewatch
