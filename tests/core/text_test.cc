#include "core/text.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ParseSystemdTimespan, ReadsSystemdTimeSpans) {
  EXPECT_EQ(ParseSystemdTimespan("5"), seconds(5));
  EXPECT_EQ(ParseSystemdTimespan("5s"), seconds(5));
  EXPECT_EQ(ParseSystemdTimespan("500ms"), milliseconds(500));
  EXPECT_EQ(ParseSystemdTimespan("1min 30s"), seconds(90));
  EXPECT_EQ(ParseSystemdTimespan("2h"), seconds(7200));
  EXPECT_EQ(ParseSystemdTimespan("3m"), seconds(180));
}

TEST(ParseSystemdTimespan, RejectsWhatIsNoTimeSpan) {
  for (const char* bad : {"", "yes", "s", "5x", "-5s", "1.5s", "99999999999999999999s"})
    EXPECT_EQ(ParseSystemdTimespan(bad), std::nullopt) << bad;
}

TEST(GlobMatch, MatchesShellPatterns) {
  EXPECT_TRUE(GlobMatch("*", "ens1f0np0"));
  EXPECT_TRUE(GlobMatch("ens*np0", "ens1f0np0"));
  EXPECT_TRUE(GlobMatch("ens?f0np0", "ens1f0np0"));
  EXPECT_FALSE(GlobMatch("ens*np1", "ens1f0np0"));
  EXPECT_FALSE(GlobMatch("", "x"));
  EXPECT_TRUE(GlobMatch("", ""));
}

TEST(SplitFields, DropsEmptyFieldsAndTrims) {
  EXPECT_EQ(SplitFields(" a, b ,,c;d ", ",;"), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_TRUE(SplitFields("", ",").empty());
}

}  // namespace
}  // namespace rocewatch

namespace rocewatch {
namespace {

TEST(TextTest, PrintableAsciiHasNoSpaceControlOrNonAsciiByte) {
  EXPECT_TRUE(IsPrintableAscii("su1-leaf-r{rail1}"));
  EXPECT_TRUE(IsPrintableAscii(""));
  EXPECT_FALSE(IsPrintableAscii("leaf 1"));
  EXPECT_FALSE(IsPrintableAscii("leaf\x1b[2J"));
  EXPECT_FALSE(IsPrintableAscii("l\xc3\xa9"));
  EXPECT_FALSE(IsPrintableAscii("x\x7f"));
}

}  // namespace
}  // namespace rocewatch
