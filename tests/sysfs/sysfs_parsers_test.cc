#include "sysfs/sysfs_parsers.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace rocewatch {
namespace {

using namespace std::string_literals;

const std::string kOversized(1 << 20, '7');
const std::string kBinary = "\x00\xff\x01\x80\n"s;

struct PortStateCase {
  std::string text;
  std::optional<SysfsPortState> want;  // nullopt: an error
};

TEST(ParsePortStateTest, Table) {
  const PortStateCase cases[] = {
      {"4: ACTIVE\n", SysfsPortState{4, "ACTIVE"}},
      {"1: DOWN", SysfsPortState{1, "DOWN"}},
      {"5: LinkUp\n", SysfsPortState{5, "LinkUp"}},
      {"3: Disabled\n", SysfsPortState{3, "Disabled"}},
      {"7: Phy Test\n", SysfsPortState{7, "Phy Test"}},
      {"9: <unknown>\n", SysfsPortState{9, "<unknown>"}},  // unknown names pass through
      {"4:ACTIVE", SysfsPortState{4, "ACTIVE"}},
      {"", std::nullopt},
      {"\n", std::nullopt},
      {"ACTIVE\n", std::nullopt},
      {"4: \n", std::nullopt},  // truncated after the colon
      {"4", std::nullopt},
      {": ACTIVE", std::nullopt},
      {"-4: ACTIVE", std::nullopt},
      {"x4: ACTIVE", std::nullopt},
      {"99999999999: ACTIVE", std::nullopt},  // does not fit 32 bits
      {"4: ACT\x01IVE", std::nullopt},
      {kBinary, std::nullopt},
      {kOversized, std::nullopt},
  };
  for (const auto& c : cases) {
    auto got = ParsePortState(c.text);
    if (c.want) {
      ASSERT_TRUE(got.ok()) << c.text << ": " << got.status().ToString();
      EXPECT_EQ(*got, *c.want) << c.text;
    } else {
      EXPECT_FALSE(got.ok()) << c.text.substr(0, 40);
      EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
    }
  }
}

TEST(ParseCounterValueTest, Table) {
  const std::pair<std::string, std::optional<uint64_t>> cases[] = {
      {"0\n", 0},
      {"123456789\n", 123456789},
      {"18446744073709551615\n", UINT64_MAX},
      {"  42  \n", 42},
      {"18446744073709551616\n", std::nullopt},  // 2^64 overflows
      {"N/A (no PMA)\n", std::nullopt},
      {"", std::nullopt},
      {"\n", std::nullopt},
      {"-1\n", std::nullopt},
      {"+1\n", std::nullopt},
      {"12 34\n", std::nullopt},
      {"0x10\n", std::nullopt},
      {"12abc", std::nullopt},
      {"1\n2\n", std::nullopt},
      {kBinary, std::nullopt},
      {kOversized, std::nullopt},
  };
  for (const auto& [text, want] : cases) {
    auto got = ParseCounterValue(text);
    if (want) {
      ASSERT_TRUE(got.ok()) << text << ": " << got.status().ToString();
      EXPECT_EQ(*got, *want) << text;
    } else {
      EXPECT_FALSE(got.ok()) << text.substr(0, 40);
    }
  }
}

TEST(ParseGidTest, Table) {
  const std::pair<std::string, std::optional<std::string>> cases[] = {
      {"0000:0000:0000:0000:0000:ffff:0a00:0002\n", "0000:0000:0000:0000:0000:ffff:0a00:0002"},
      {"FE80:0000:0000:0000:0E42:A1FF:FE5E:0000\n", "fe80:0000:0000:0000:0e42:a1ff:fe5e:0000"},
      {"0000:0000:0000:0000:0000:0000:0000:0000", "0000:0000:0000:0000:0000:0000:0000:0000"},
      {"fe80::e42:a1ff:fe5e:0\n", std::nullopt},  // compressed form: not what sysfs prints
      {"0000:0000:0000:0000:0000:ffff:0a00:000\n", std::nullopt},    // truncated
      {"0000:0000:0000:0000:0000:ffff:0a00:00020\n", std::nullopt},  // one digit too many
      {"0000-0000-0000-0000-0000-ffff-0a00-0002", std::nullopt},
      {"0000:0000:0000:0000:0000:ffff:0a00:00g2", std::nullopt},
      {"0000:0000:0000:0000:0000:ffff:0a00:0002:", std::nullopt},
      {"", std::nullopt},
      {kBinary, std::nullopt},
      {kOversized, std::nullopt},
  };
  for (const auto& [text, want] : cases) {
    auto got = ParseGid(text);
    if (want) {
      ASSERT_TRUE(got.ok()) << text << ": " << got.status().ToString();
      EXPECT_EQ(*got, *want);
    } else {
      EXPECT_FALSE(got.ok()) << text.substr(0, 40);
    }
  }
}

TEST(ParseGidTypeTest, Table) {
  EXPECT_EQ(ParseGidType("IB/RoCE v1\n"), GidType::kRoceV1);
  EXPECT_EQ(ParseGidType("RoCE v2\n"), GidType::kRoceV2);
  EXPECT_EQ(ParseGidType("RoCE v2"), GidType::kRoceV2);
  EXPECT_EQ(ParseGidType("IB\n"), GidType::kIb);
  EXPECT_EQ(ParseGidType("RoCE v3\n"), GidType::kUnknown);
  EXPECT_EQ(ParseGidType("roce v2\n"), GidType::kUnknown);
  EXPECT_EQ(ParseGidType(""), GidType::kUnknown);
  EXPECT_EQ(ParseGidType(kBinary), GidType::kUnknown);
  EXPECT_EQ(ParseGidType(kOversized), GidType::kUnknown);
}

TEST(ParseNetdevNameTest, Table) {
  const std::pair<std::string, std::optional<std::string>> cases[] = {
      {"ens1f0np0\n", "ens1f0np0"},
      {"  bond0.100 \n", "bond0.100"},
      {"abcdefghijklmno", "abcdefghijklmno"},  // 15 bytes: the longest allowed
      {"abcdefghijklmnop", std::nullopt},      // 16 bytes
      {"", std::nullopt},
      {"\n", std::nullopt},
      {"eth/0", std::nullopt},
      {"eth 0", std::nullopt},
      {"eth0:1", std::nullopt},
      {"..", std::nullopt},
      {"eth\x01", std::nullopt},
      {kBinary, std::nullopt},
      {kOversized, std::nullopt},
  };
  for (const auto& [text, want] : cases) {
    auto got = ParseNetdevName(text);
    if (want) {
      ASSERT_TRUE(got.ok()) << text << ": " << got.status().ToString();
      EXPECT_EQ(*got, *want);
    } else {
      EXPECT_FALSE(got.ok()) << text.substr(0, 40);
    }
  }
}

TEST(ParsePlainTextTest, TrimsBlanksAndNewlines) {
  EXPECT_EQ(ParsePlainText("400 Gb/sec (4X NDR)\n"), "400 Gb/sec (4X NDR)");
  EXPECT_EQ(ParsePlainText("  Ethernet \r\n"), "Ethernet");
  EXPECT_EQ(ParsePlainText(""), "");
  EXPECT_EQ(ParsePlainText("\n\n"), "");
  EXPECT_EQ(ParsePlainText(kOversized).size(), kOversized.size());
}

}  // namespace
}  // namespace rocewatch
