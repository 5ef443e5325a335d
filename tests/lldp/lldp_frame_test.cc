#include "lldp/lldp_frame.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

namespace rocewatch {
namespace {

// Bytes written as hex digits, spaces ignored: "02 07 04" is {0x02, 0x07, 0x04}.
std::vector<uint8_t> FromHex(std::string_view hex) {
  std::vector<uint8_t> out;
  std::string digits;
  for (char c : hex)
    if (std::isxdigit(static_cast<unsigned char>(c))) digits += c;
  for (size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

std::vector<uint8_t> Concat(std::initializer_list<std::string_view> parts) {
  std::vector<uint8_t> out;
  for (std::string_view part : parts) {
    std::vector<uint8_t> bytes = FromHex(part);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

constexpr std::string_view kEthernetHeader = "0180c200000e 020000000007 88cc";
constexpr std::string_view kChassisMac = "0207 04 020000000007";
constexpr std::string_view kPortIfname = "0405 05 73777037";  // "swp7"
constexpr std::string_view kTtl120 = "0602 0078";
constexpr std::string_view kMandatory = "0207 04 020000000007  0405 05 73777037  0602 0078";
constexpr std::string_view kEnd = "0000";

// What a leaf switch (lldpd configured as one) sends: every TLV rocewatch reads.
std::vector<uint8_t> LeafFrame() {
  return Concat({kEthernetHeader, kChassisMac, kPortIfname, kTtl120,
                 "0806 45746831 2f37",                  // port description "Eth1/7"
                 "0a07 6c6561662d3037",                 // system name "leaf-07"
                 "0c05 534f4e6943",                     // system description "SONiC"
                 "0e04 0014 0014",                      // capabilities: bridge, router
                 "100c 05 01 0a000007 02 00000007 00",  // management address 10.0.0.7
                 "fe06 0080c2 0b 08 08",                // PFC: 8 TCs, priority 3
                 "fe19 0080c2 09 83 00030000 3200003200000000 0200000200000000",  // ETS
                 "fe08 0080c2 0c 00 6312b7",     // app priority: UDP 4791 -> 3
                 "fe09 00120f 01 03 6c00 0010",  // MAC/PHY
                 "fe06 00120f 04 2400",          // maximum frame size 9216
                 kEnd});
}

TEST(LldpFrameTest, DecodesEveryTlvOfALeafSwitchFrame) {
  StatusOr<LldpFrame> f = ParseLldpFrame(LeafFrame());
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->source_mac, "02:00:00:00:00:07");
  EXPECT_EQ(f->chassis_id, (LldpId{kChassisMacAddress, "02:00:00:00:00:07"}));
  EXPECT_EQ(f->port_id, (LldpId{kPortInterfaceName, "swp7"}));
  EXPECT_EQ(f->ttl_seconds, 120);
  EXPECT_EQ(f->port_description, "Eth1/7");
  EXPECT_EQ(f->system_name, "leaf-07");
  EXPECT_EQ(f->system_description, "SONiC");
  EXPECT_EQ(f->capabilities, (LldpCapabilities{0x14, 0x14}));
  EXPECT_TRUE(f->IsSwitch());
  ASSERT_EQ(f->management_addresses.size(), 1u);
  EXPECT_EQ(f->management_addresses[0], (LldpManagementAddress{1, "10.0.0.7", 2, 7}));
  EXPECT_EQ(f->pfc, (LldpPfc{.willing = false, .mbc = false, .capability = 8, .enabled = 0x08}));
  ASSERT_TRUE(f->ets_configuration);
  EXPECT_TRUE(f->ets_configuration->willing);
  EXPECT_EQ(f->ets_configuration->max_tcs, 3);
  EXPECT_EQ(f->ets_configuration->priority_tc, (std::array<uint8_t, 8>{0, 0, 0, 3, 0, 0, 0, 0}));
  EXPECT_EQ(f->ets_configuration->tc_bandwidth_percent[3], 50);
  EXPECT_EQ(f->ets_configuration->tc_algorithm[0], 2);
  EXPECT_EQ(f->app_priorities, (std::vector<LldpAppPriority>{{3, 3, 4791}}));
  EXPECT_EQ(f->RoceV2Priority(), 3);
  EXPECT_EQ(f->mac_phy, (LldpMacPhy{true, true, 0x6c00, 0x0010}));
  EXPECT_EQ(f->max_frame_size, 9216);
  EXPECT_EQ(f->skipped_tlvs, 0);
}

// A frame lldpd 1.0.16 (Debian 12) sent, captured with tcpdump: system name leaf-07, capabilities
// bridge and router enabled, port ID subtype ifname, tx-interval 1 (TTL 4), and the 802.1Qaz PFC
// TLV added with `configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08`.
TEST(LldpFrameTest, DecodesAFrameLldpdSent) {
  StatusOr<LldpFrame> f = ParseLldpFrame(FromHex(
      "0180c200000e5e64e1da8db988cc0207045e64e1da8db90403057377060200040a076c6561662d30370c5644"
      "656269616e20474e552f4c696e75782031322028626f6f6b776f726d29204c696e757820362e31382e3434"
      "2d66632d763130343520233120534d5020505245454d50545f44594e414d4943204030207838365f36340e"
      "04009c001410181102fe800000000000005c64e1fffeda8db902000000020008027377fe0900120f030100"
      "000000fe0900120f010080000036fe060080c20b08080000"));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->chassis_id, (LldpId{kChassisMacAddress, "5e:64:e1:da:8d:b9"}));
  EXPECT_EQ(f->port_id, (LldpId{kPortInterfaceName, "sw"}));
  EXPECT_EQ(f->ttl_seconds, 4);
  EXPECT_EQ(f->system_name, "leaf-07");
  EXPECT_EQ(f->port_description, "sw");
  EXPECT_EQ(f->capabilities, (LldpCapabilities{0x009c, 0x0014}));
  EXPECT_TRUE(f->IsSwitch());
  ASSERT_EQ(f->management_addresses.size(), 1u);
  EXPECT_EQ(f->management_addresses[0].address, "fe80::5c64:e1ff:feda:8db9");
  EXPECT_EQ(f->pfc->enabled, 0x08);
  EXPECT_EQ(f->mac_phy, (LldpMacPhy{false, false, 0x8000, 0x0036}));
  EXPECT_EQ(f->skipped_tlvs, 1);  // 802.3 link aggregation: not decoded
}

TEST(LldpFrameTest, MandatoryTlvsAloneMakeAValidFrame) {
  StatusOr<LldpFrame> f = ParseLldpdu(Concat({kMandatory}));  // no End TLV either
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->port_id.value, "swp7");
  EXPECT_FALSE(f->system_name);
  EXPECT_FALSE(f->IsSwitch());
  EXPECT_FALSE(f->RoceV2Priority());
}

TEST(LldpFrameTest, ReadsNothingAfterTheEndTlv) {
  StatusOr<LldpFrame> f = ParseLldpdu(Concat({kMandatory, kEnd, "0a07 6c6561662d3037 ffff"}));
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->system_name);
}

TEST(LldpFrameTest, AVlanTaggedFrameDecodes) {
  StatusOr<LldpFrame> f =
      ParseLldpFrame(Concat({"0180c200000e 020000000007 8100 0003 88cc", kMandatory, kEnd}));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ(f->chassis_id.value, "02:00:00:00:00:07");
}

TEST(LldpFrameTest, IdSubtypesAreRenderedAsTheirKind) {
  struct Case {
    std::string_view chassis;
    LldpId expected;
  } cases[] = {
      {"0206 05 01 0a000007", {kChassisNetworkAddress, "10.0.0.7"}},
      {"0212 05 02 fe800000000000000000000000000001", {kChassisNetworkAddress, "fe80::1"}},
      {"0204 05 09 abcd", {kChassisNetworkAddress, "family 9: abcd"}},
      {"0205 04 0102 0304", {kChassisMacAddress, "01:02:03:04"}},  // wrong length: still shown
      {"0208 07 6c6561662d3037", {kChassisLocallyAssigned, "leaf-07"}},
      {"0205 01 63683031", {kChassisComponent, "ch01"}},
      {"0203 06 6530", {kChassisInterfaceName, "e0"}},
  };
  for (const Case& c : cases) {
    StatusOr<LldpFrame> f = ParseLldpdu(Concat({c.chassis, kPortIfname, kTtl120}));
    ASSERT_TRUE(f.ok()) << c.chassis << ": " << f.status().ToString();
    EXPECT_EQ(f->chassis_id, c.expected) << c.chassis;
  }
  StatusOr<LldpFrame> f = ParseLldpdu(Concat({kChassisMac, "0407 03 0a0b0c0d0e0f", kTtl120}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->port_id, (LldpId{kPortMacAddress, "0a:0b:0c:0d:0e:0f"}));
  f = ParseLldpdu(Concat({kChassisMac, "0406 04 01 c0a80001", kTtl120}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->port_id, (LldpId{kPortNetworkAddress, "192.168.0.1"}));
  f = ParseLldpdu(Concat({kChassisMac, "0404 07 3132 33", kTtl120}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->port_id, (LldpId{kPortLocallyAssigned, "123"}));
}

TEST(LldpFrameTest, InvalidFramesSayWhy) {
  struct Case {
    std::string_view lldpdu;
    std::string_view why;
  } cases[] = {
      {"", "ends before its chassis ID"},
      {"0405 05 73777037", "not chassis ID"},
      {"0201 04", "chassis ID TLV of length 1"},
      {"0200", "chassis ID TLV of length 0"},
      {"02ff 04 0200", "runs past the frame"},
      {"0207 04 020000000007 0602 0078", "not port ID"},
      {"0207 04 020000000007 0401 05", "port ID TLV of length 1"},
      {"0207 04 020000000007 0405 05 73777037 0603 000078", "TTL TLV of length 3"},
      {"0207 04 020000000007 0405 05 73777037", "ends before"},
      {"0207 04 020000000007 0405 05 73777037 0602 0078 0a", "truncated TLV header"},
      {"0207 04 020000000007 0405 05 73777037 0602 0078 0207 04 020000000008",
       "a second TLV of type 1"},
      {"0207 04 020000000007 0405 05 73777037 0602 0078 0602 0078", "a second TLV of type 3"},
      {"0000", "not chassis ID"},
  };
  for (const Case& c : cases) {
    StatusOr<LldpFrame> f = ParseLldpdu(FromHex(c.lldpdu));
    ASSERT_FALSE(f.ok()) << c.lldpdu;
    EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(f.status().message().find(c.why), std::string::npos)
        << c.lldpdu << ": " << f.status().message();
  }
}

TEST(LldpFrameTest, NonLldpEthernetFramesAreInvalid) {
  EXPECT_FALSE(ParseLldpFrame(FromHex("0180c200000e 020000000007 0800 4500")).ok());
  EXPECT_FALSE(ParseLldpFrame(FromHex("0180c200000e 020000000007 88")).ok());
  EXPECT_FALSE(ParseLldpFrame(FromHex("0180c200000e 020000000007 8100 00")).ok());
  StatusOr<LldpFrame> f = ParseLldpFrame(FromHex("0180c200000e 020000000007 86dd"));
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("ethertype 86dd"), std::string::npos);
}

TEST(LldpFrameTest, MalformedOptionalTlvsAreSkippedAndCounted) {
  struct Case {
    std::string_view tlv;
    std::string_view what;
  } cases[] = {
      {"fe05 0080c2 0b 08", "PFC one byte short"},
      {"fe07 0080c2 0b 080800", "PFC one byte long"},
      {"fe18 0080c2 09 83 00030000 3200003200000000 02000002000000", "ETS one byte short"},
      {"fe07 0080c2 0c 00 6312", "app priority with a partial entry"},
      {"fe04 0080c2 0c", "app priority without its reserved byte"},
      {"fe05 00120f 04 24", "maximum frame size one byte short"},
      {"fe08 00120f 01 03 6c00 00", "MAC/PHY one byte short"},
      {"fe03 0080c2", "organizationally specific without a subtype"},
      {"fe06 001b21 01 0000", "unknown OUI"},
      {"fe06 0080c2 01 0001", "802.1 port VLAN ID (not decoded)"},
      {"0e03 0014 00", "capabilities one byte short"},
      {"1004 05 01 0a00", "management address shorter than its address"},
      {"100c 21 01 0a000007 02 00000007 00", "management address length 33"},
      {"100c 05 01 0a000007 02 00000007 05", "management address OID past the TLV"},
      {"0a00", "empty system name"},
      {"1e02 0000", "reserved TLV type 15"},
  };
  for (const Case& c : cases) {
    StatusOr<LldpFrame> f = ParseLldpdu(Concat({kMandatory, c.tlv, kEnd}));
    ASSERT_TRUE(f.ok()) << c.what << ": " << f.status().ToString();
    EXPECT_EQ(f->skipped_tlvs, 1) << c.what;
    EXPECT_FALSE(f->pfc || f->ets_configuration || f->max_frame_size || f->mac_phy ||
                 f->capabilities || f->system_name || !f->management_addresses.empty() ||
                 !f->app_priorities.empty())
        << c.what;
  }
}

TEST(LldpFrameTest, ARepeatedOptionalTlvKeepsTheFirst) {
  StatusOr<LldpFrame> f =
      ParseLldpdu(Concat({kMandatory, "0a07 6c6561662d3037", "0a07 6c6561662d3939",
                          "fe06 0080c2 0b 08 08", "fe06 0080c2 0b 08 10", kEnd}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->system_name, "leaf-07");
  EXPECT_EQ(f->pfc->enabled, 0x08);
  EXPECT_EQ(f->skipped_tlvs, 2);
}

TEST(LldpFrameTest, StringsAreValidUtf8WithoutControlCharacters) {
  // ESC [ 3 1 m, an invalid byte, a C1 CSI (U+009B), DEL, then "é" (valid, kept).
  StatusOr<LldpFrame> f =
      ParseLldpdu(Concat({kMandatory, "0a0b 1b5b33316d ff c29b 7f c3a9", kEnd}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f->system_name, "\xef\xbf\xbd[31m\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9");
}

TEST(LldpFrameTest, NineBitLengthsReachTheLongestTlv) {
  std::vector<uint8_t> frame = Concat({kMandatory, "09ff"});  // port description of 511 bytes
  frame.insert(frame.end(), 511, 'x');
  StatusOr<LldpFrame> f = ParseLldpdu(frame);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->port_description->size(), 511u);
}

TEST(LldpFrameTest, ManagementAddressesAreBounded) {
  std::vector<std::string_view> parts = {kMandatory};
  for (size_t i = 0; i < kMaxManagementAddresses + 3; ++i)
    parts.push_back("100c 05 01 0a000007 02 00000007 00");
  std::vector<uint8_t> frame;
  for (std::string_view p : parts) {
    std::vector<uint8_t> b = FromHex(p);
    frame.insert(frame.end(), b.begin(), b.end());
  }
  StatusOr<LldpFrame> f = ParseLldpdu(frame);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->management_addresses.size(), kMaxManagementAddresses);
  EXPECT_EQ(f->skipped_tlvs, 3);
}

TEST(LldpFrameTest, RocePriorityIsTheHighestEntryForUdp4791) {
  // TCP 4791 at 6 (not RoCE), UDP 4791 at 3 and at 5, any-transport 4791 at 4, UDP 53 at 7.
  StatusOr<LldpFrame> f = ParseLldpdu(
      Concat({kMandatory, "fe14 0080c2 0c 00 c212b7 6312b7 a312b7 8412b7 e30035", kEnd}));
  ASSERT_TRUE(f.ok());
  ASSERT_EQ(f->app_priorities.size(), 5u);
  EXPECT_EQ(f->RoceV2Priority(), 5);
  f = ParseLldpdu(Concat({kMandatory, "fe08 0080c2 0c 00 8412b7", kEnd}));
  EXPECT_EQ(f->RoceV2Priority(), 4);
}

TEST(LldpFrameTest, AStationIsNotASwitch) {
  StatusOr<LldpFrame> f = ParseLldpdu(Concat({kMandatory, "0e04 0080 0080", kEnd}));
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->IsSwitch());
  f = ParseLldpdu(Concat({kMandatory, "0e04 0004 0000", kEnd}));  // a bridge, none enabled
  EXPECT_TRUE(f->IsSwitch());
}

}  // namespace
}  // namespace rocewatch
