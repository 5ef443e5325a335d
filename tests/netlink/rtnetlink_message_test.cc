#include "netlink/rtnetlink_message.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/fib_rules.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rocewatch {
namespace {

// Builds the bytes of one rtnetlink message with libnl, as the kernel would send them.
class MessageBytes {
 public:
  template <typename Header>
  MessageBytes(int type, const Header& header) : msg_(nlmsg_alloc_simple(type, 0)) {
    nlmsg_append(msg_, const_cast<Header*>(&header), sizeof header, NLMSG_ALIGNTO);
  }
  ~MessageBytes() { nlmsg_free(msg_); }
  MessageBytes& U8(int type, uint8_t v) { return Put(type, &v, 1); }
  MessageBytes& U32(int type, uint32_t v) { return Put(type, &v, 4); }
  MessageBytes& Str(int type, const std::string& s) { return Put(type, s.c_str(), s.size() + 1); }
  MessageBytes& Ip4(int type, const char* text) {
    in_addr a;
    inet_pton(AF_INET, text, &a);
    return Put(type, &a, 4);
  }
  MessageBytes& Ip6(int type, const char* text) {
    in6_addr a;
    inet_pton(AF_INET6, text, &a);
    return Put(type, &a, 16);
  }
  MessageBytes& Put(int type, const void* data, size_t len) {
    nla_put(msg_, type, static_cast<int>(len), data);
    return *this;
  }
  std::vector<uint8_t> bytes() const {
    const nlmsghdr* h = nlmsg_hdr(msg_);
    auto* p = reinterpret_cast<const uint8_t*>(h);
    return std::vector<uint8_t>(p, p + h->nlmsg_len);
  }

 private:
  nl_msg* msg_;
};

const MonoTime kAt = MonoTime{} + std::chrono::seconds(42);

NetlinkMessage ParseOk(const std::vector<uint8_t>& bytes) {
  auto parsed = ParseRtnetlinkMessage(bytes.data(), bytes.size(), kAt);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed.ok() && parsed->has_value());
  return parsed.ok() && parsed->has_value() ? **parsed : NetlinkMessage{};
}

ifinfomsg Ifi(int index, unsigned flags) {
  ifinfomsg ifi{};
  ifi.ifi_family = AF_UNSPEC;
  ifi.ifi_index = index;
  ifi.ifi_flags = flags;
  return ifi;
}

TEST(ParseRtnetlinkMessage, LinkWithEveryCarrierAttribute) {
  auto bytes = MessageBytes(RTM_NEWLINK, Ifi(7, IFF_UP | IFF_RUNNING | IFF_LOWER_UP))
                   .Str(IFLA_IFNAME, "ens1f0np0")
                   .U8(IFLA_OPERSTATE, 6)
                   .U8(IFLA_CARRIER, 1)
                   .U32(IFLA_CARRIER_CHANGES, 12)
                   .U32(IFLA_CARRIER_UP_COUNT, 6)
                   .U32(IFLA_CARRIER_DOWN_COUNT, 6)
                   .bytes();
  auto link = std::get<LinkMessage>(ParseOk(bytes));
  EXPECT_EQ(link.at, kAt);
  EXPECT_FALSE(link.removed);
  EXPECT_EQ(link.ifindex, 7);
  EXPECT_EQ(link.name, "ens1f0np0");
  EXPECT_EQ(link.operstate, "UP");
  EXPECT_TRUE(link.admin_up());
  EXPECT_TRUE(link.has_carrier());
  EXPECT_EQ(link.carrier_changes, 12u);
  EXPECT_EQ(link.carrier_up_count, 6u);
  EXPECT_EQ(link.carrier_down_count, 6u);
}

TEST(ParseRtnetlinkMessage, LinkWithoutCarrierAttributeFallsBackToLowerUp) {
  auto down = MessageBytes(RTM_NEWLINK, Ifi(3, IFF_UP)).Str(IFLA_IFNAME, "eth0").bytes();
  auto up = MessageBytes(RTM_NEWLINK, Ifi(3, IFF_UP | IFF_LOWER_UP)).bytes();
  EXPECT_FALSE(std::get<LinkMessage>(ParseOk(down)).has_carrier());
  EXPECT_TRUE(std::get<LinkMessage>(ParseOk(up)).has_carrier());
  EXPECT_FALSE(std::get<LinkMessage>(ParseOk(down)).carrier_changes.has_value());
}

TEST(ParseRtnetlinkMessage, DelLinkIsRemovedAndUnknownOperstatePassesThrough) {
  auto bytes = MessageBytes(RTM_DELLINK, Ifi(9, 0)).U8(IFLA_OPERSTATE, 42).bytes();
  auto link = std::get<LinkMessage>(ParseOk(bytes));
  EXPECT_TRUE(link.removed);
  EXPECT_EQ(link.operstate, "42");
}

TEST(ParseRtnetlinkMessage, Ipv4AddressPrefersLocalOverPeer) {
  ifaddrmsg ifa{AF_INET, 24, 0, RT_SCOPE_UNIVERSE, 5};
  auto bytes = MessageBytes(RTM_DELADDR, ifa)
                   .Ip4(IFA_ADDRESS, "10.0.0.99")
                   .Ip4(IFA_LOCAL, "10.0.0.2")
                   .bytes();
  auto addr = std::get<AddressMessage>(ParseOk(bytes));
  EXPECT_TRUE(addr.removed);
  EXPECT_EQ(addr.ifindex, 5);
  EXPECT_EQ(addr.address.ToString(), "10.0.0.2/24");
  EXPECT_EQ(addr.address.family, AddressFamily::kIpv4);
  EXPECT_FALSE(addr.address.link_local);
}

TEST(ParseRtnetlinkMessage, Ipv6LinkLocalAddress) {
  ifaddrmsg ifa{AF_INET6, 64, 0, RT_SCOPE_LINK, 5};
  auto bytes = MessageBytes(RTM_NEWADDR, ifa).Ip6(IFA_ADDRESS, "fe80::1").bytes();
  auto addr = std::get<AddressMessage>(ParseOk(bytes));
  EXPECT_EQ(addr.address.ToString(), "fe80::1/64");
  EXPECT_TRUE(addr.address.link_local);
}

TEST(ParseRtnetlinkMessage, PolicyRule) {
  fib_rule_hdr frh{};
  frh.family = AF_INET;
  frh.src_len = 32;
  frh.table = 100;
  frh.action = FR_ACT_TO_TBL;
  auto bytes = MessageBytes(RTM_NEWRULE, frh)
                   .Ip4(FRA_SRC, "10.0.0.2")
                   .U32(FRA_PRIORITY, 1000)
                   .U32(FRA_TABLE, 100)
                   .bytes();
  auto rule = std::get<RuleMessage>(ParseOk(bytes)).rule;
  EXPECT_EQ(rule.ToString(), "from 10.0.0.2/32 lookup 100 prio 1000");
}

TEST(ParseRtnetlinkMessage, RouteWithTableAttributeAboveTheHeaderRange) {
  rtmsg rtm{};
  rtm.rtm_family = AF_INET;
  rtm.rtm_table = RT_TABLE_COMPAT;
  rtm.rtm_type = RTN_UNICAST;
  auto bytes = MessageBytes(RTM_NEWROUTE, rtm)
                   .U32(RTA_TABLE, 1000)
                   .U32(RTA_OIF, 4)
                   .Ip4(RTA_GATEWAY, "10.0.0.1")
                   .bytes();
  auto route = std::get<RouteMessage>(ParseOk(bytes)).route;
  EXPECT_EQ(route.ToString(), "default via 10.0.0.1 dev#4 table 1000");
}

TEST(ParseRtnetlinkMessage, UnwatchedTypesAndFamiliesAreSkipped) {
  rtmsg mroute{};
  mroute.rtm_family = RTNL_FAMILY_IPMR;
  ndmsg neigh{};
  for (const auto& bytes :
       {MessageBytes(RTM_NEWROUTE, mroute).bytes(), MessageBytes(RTM_NEWNEIGH, neigh).bytes()}) {
    auto parsed = ParseRtnetlinkMessage(bytes.data(), bytes.size(), kAt);
    ASSERT_TRUE(parsed.ok());
    EXPECT_FALSE(parsed->has_value());
  }
}

// Malformed input: every case is an error, never a crash or a value.
TEST(ParseRtnetlinkMessage, MalformedInputIsAnError) {
  ifaddrmsg ifa{AF_INET, 24, 0, 0, 5};
  std::vector<uint8_t> good = MessageBytes(RTM_NEWADDR, ifa).Ip4(IFA_LOCAL, "10.0.0.2").bytes();
  std::vector<uint8_t> short_address =
      MessageBytes(RTM_NEWADDR, ifa).Put(IFA_LOCAL, "\x0a\x00\x00", 3).bytes();
  std::vector<uint8_t> no_address = MessageBytes(RTM_NEWADDR, ifa).bytes();
  std::vector<uint8_t> oversized_len = good;
  uint32_t huge = 1u << 30;
  std::memcpy(oversized_len.data(), &huge, 4);
  std::vector<uint8_t> attr_overrun = good;
  attr_overrun[sizeof(nlmsghdr) + sizeof(ifaddrmsg)] = 0xff;  // nla_len beyond the message
  std::vector<uint8_t> header_only(good.begin(), good.begin() + sizeof(nlmsghdr));
  uint32_t header_len = sizeof(nlmsghdr);
  std::memcpy(header_only.data(), &header_len, 4);  // a body shorter than ifaddrmsg
  std::vector<uint8_t> binary(64, 0xa5);

  struct Case {
    const char* name;
    std::vector<uint8_t> bytes;
  };
  for (const Case& c : std::vector<Case>{{"empty", {}},
                                         {"truncated header", {1, 2, 3}},
                                         {"length beyond buffer", oversized_len},
                                         {"attribute beyond message", attr_overrun},
                                         {"body shorter than ifaddrmsg", header_only},
                                         {"3-byte IPv4 address", short_address},
                                         {"address message without address", no_address},
                                         {"binary noise", binary}}) {
    auto parsed = ParseRtnetlinkMessage(c.bytes.data(), c.bytes.size(), kAt);
    EXPECT_FALSE(parsed.ok()) << c.name;
  }
  EXPECT_TRUE(ParseRtnetlinkMessage(good.data(), good.size(), kAt).ok());
}

// Random corruption of real messages (a poor man's fuzzer; the libFuzzer target goes further):
// every outcome is a value or an error, and a value always has a type we watch.
TEST(ParseRtnetlinkMessage, CorruptedMessagesNeverCrash) {
  fib_rule_hdr frh{};
  frh.family = AF_INET6;
  frh.src_len = 128;
  std::vector<std::vector<uint8_t>> seeds = {
      MessageBytes(RTM_NEWLINK, Ifi(7, IFF_UP))
          .Str(IFLA_IFNAME, "ens1f0np0")
          .U8(IFLA_CARRIER, 1)
          .U32(IFLA_CARRIER_CHANGES, 3)
          .bytes(),
      MessageBytes(RTM_NEWADDR, ifaddrmsg{AF_INET6, 64, 0, 0, 5})
          .Ip6(IFA_ADDRESS, "fd00::2")
          .bytes(),
      MessageBytes(RTM_NEWRULE, frh).Ip6(FRA_SRC, "fd00::2").U32(FRA_TABLE, 7).bytes()};
  std::mt19937 rng(1234);
  int values = 0, errors = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> bytes = seeds[i % seeds.size()];
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    if (rng() % 4 == 0) bytes.resize(rng() % bytes.size());
    auto parsed = ParseRtnetlinkMessage(bytes.data(), bytes.size(), kAt);
    (parsed.ok() ? values : errors)++;
  }
  EXPECT_GT(values, 0);
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace rocewatch
