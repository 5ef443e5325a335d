#include "hostconfig/ini_file.h"

#include <gtest/gtest.h>

#include "support/bytes.h"

namespace rocewatch {
namespace {

TEST(ParseIniFile, ReadsNetworkManagerDeviceState) {
  IniFile f = ParseIniFile("[device]\nmanaged=true\nperm-hw-addr-fake=\nconnection-uuid=5b0e9c1a\n",
                           IniDialect::kKeyfile);
  EXPECT_EQ(f.Last("device", "managed"), "true");
  EXPECT_EQ(f.Last("device", "perm-hw-addr-fake"), "");
  EXPECT_EQ(f.Last("device", "connection-uuid"), "5b0e9c1a");
  EXPECT_EQ(f.Last("main", "managed"), std::nullopt);
  EXPECT_TRUE(f.malformed_lines.empty());
}

TEST(ParseIniFile, KeysBeforeAnySectionBelongToTheEmptySection) {
  IniFile f = ParseIniFile("# private\nADMIN_STATE=configured\nNETWORK_FILE=/etc/x.network\n",
                           IniDialect::kSystemd);
  EXPECT_EQ(f.Last("", "ADMIN_STATE"), "configured");
  EXPECT_EQ(f.Last("", "NETWORK_FILE"), "/etc/x.network");
}

TEST(ParseIniFile, LaterAssignmentsOverrideEarlierOnes) {
  IniFile f = ParseIniFile(
      "[Network]\nIgnoreCarrierLoss=no\n[Match]\nName=x\n[Network]\n"
      "IgnoreCarrierLoss = yes \n",
      IniDialect::kSystemd);
  EXPECT_EQ(f.Last("Network", "IgnoreCarrierLoss"), "yes");
  EXPECT_EQ(f.Sections(), (std::vector<std::string>{"Network", "Match"}));
}

TEST(ParseIniFile, SystemdContinuesLinesAndTakesSemicolonComments) {
  IniFile f = ParseIniFile("[Network]\n; comment\nAddress=10.0.0.2/24 \\\n  fd00::2/64\n",
                           IniDialect::kSystemd);
  EXPECT_EQ(f.Last("Network", "Address"), "10.0.0.2/24  fd00::2/64");
  IniFile k = ParseIniFile("[main]\n; not a comment in a keyfile\n", IniDialect::kKeyfile);
  EXPECT_EQ(k.malformed_lines, std::vector<int>{2});
}

struct MalformedCase {
  const char* name;
  std::string text;
  std::vector<int> malformed;
  size_t entries;
};

TEST(ParseIniFile, ReportsMalformedAndBinaryInputWithoutFailing) {
  const MalformedCase cases[] = {
      {"empty", "", {}, 0},
      {"only comments", "# a\n\n   # b\n", {}, 0},
      {"unterminated section", "[device\nmanaged=true\n", {1}, 1},
      {"no equals", "[device]\nmanaged\n", {2}, 0},
      {"empty key", "[device]\n=true\n", {2}, 0},
      {"truncated last line", "[device]\nmanaged=tr", {}, 1},
      {"CRLF", "[device]\r\nmanaged=true\r\n", {}, 1},
      {"binary", Bytes("[d\0v]\nk=\xff\x00\x01\n\x80\x81\n"), {3}, 1},
  };
  for (const MalformedCase& c : cases) {
    IniFile f = ParseIniFile(c.text, IniDialect::kKeyfile);
    EXPECT_EQ(f.malformed_lines, c.malformed) << c.name;
    EXPECT_EQ(f.entries.size(), c.entries) << c.name;
  }
}

TEST(ParseIniFile, OversizedInputParsesLinearly) {
  std::string big = "[main]\n";
  for (int i = 0; i < 50000; ++i) big += "key" + std::to_string(i) + "=value\n";
  IniFile f = ParseIniFile(big, IniDialect::kKeyfile);
  EXPECT_EQ(f.entries.size(), 50000u);
  EXPECT_EQ(f.Last("main", "key49999"), "value");
}

TEST(ParseIniBool, AcceptsBothDialectsSpellings) {
  for (const char* yes : {"1", "yes", "TRUE", "on", " Yes "}) EXPECT_EQ(ParseIniBool(yes), true);
  for (const char* no : {"0", "no", "False", "off"}) EXPECT_EQ(ParseIniBool(no), false);
  for (const char* bad : {"", "2", "static", "5s"}) EXPECT_EQ(ParseIniBool(bad), std::nullopt);
}

}  // namespace
}  // namespace rocewatch
