#include "core/utf8.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

struct Utf8Case {
  const char* what;
  std::string input;
  bool valid;
  std::string repaired;
};

TEST(Utf8Test, Table) {
  const std::string fffd = "\xef\xbf\xbd";
  const std::vector<Utf8Case> cases = {
      {"empty", "", true, ""},
      {"ASCII with controls", "a\tb\x01", true, "a\tb\x01"},
      {"NUL", std::string("a\0b", 3), true, std::string("a\0b", 3)},
      {"two-byte", "caf\xc3\xa9", true, "caf\xc3\xa9"},
      {"three-byte", "\xe2\x82\xac", true, "\xe2\x82\xac"},
      {"four-byte", "\xf0\x9f\x98\x80", true, "\xf0\x9f\x98\x80"},
      {"U+10FFFF", "\xf4\x8f\xbf\xbf", true, "\xf4\x8f\xbf\xbf"},
      {"lone continuation", "a\x80z", false, "a" + fffd + "z"},
      {"0xff", "\xff", false, fffd},
      {"overlong slash", "\xc0\xaf", false, fffd + fffd},
      {"overlong three-byte", "\xe0\x80\xaf", false, fffd + fffd + fffd},
      {"surrogate", "\xed\xa0\x80", false, fffd + fffd + fffd},
      {"above U+10FFFF", "\xf4\x90\x80\x80", false, fffd + fffd + fffd + fffd},
      {"truncated at the end", "ok\xe2\x82", false, "ok" + fffd + fffd},
      {"truncated before ASCII", "\xe2\x82z", false, fffd + fffd + "z"},
  };
  for (const Utf8Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(IsValidUtf8(c.input), c.valid);
    EXPECT_EQ(ToValidUtf8(c.input), c.repaired);
    EXPECT_TRUE(IsValidUtf8(ToValidUtf8(c.input)));
  }
}

}  // namespace
}  // namespace rocewatch
