#include "core/duration.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(ParseDuration, AcceptsTheContractForms) {
  EXPECT_EQ(*ParseDuration("500ms"), milliseconds(500));
  EXPECT_EQ(*ParseDuration("1s"), seconds(1));
  EXPECT_EQ(*ParseDuration("2m"), seconds(120));
  EXPECT_EQ(*ParseDuration("1h"), seconds(3600));
  EXPECT_EQ(*ParseDuration("1m30s"), seconds(90));
  EXPECT_EQ(*ParseDuration("0"), Duration::zero());
}

TEST(ParseDuration, RejectsMalformedInputWithAClearMessage) {
  for (const char* bad : {"", "s", "1", "1x", "-1s", "1.5s", "ms", "1s ", " 1s",
                          "99999999999999999999s", "1000000000h"}) {
    StatusOr<Duration> parsed = ParseDuration(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
      EXPECT_NE(parsed.status().message().find("invalid duration"), std::string::npos);
    }
  }
}

TEST(FormatDuration, RendersTheShortestExactForm) {
  EXPECT_EQ(FormatDuration(milliseconds(1500)), "1500ms");
  EXPECT_EQ(FormatDuration(seconds(60)), "1m");
  EXPECT_EQ(FormatDuration(Duration::zero()), "0s");
}

}  // namespace
}  // namespace rocewatch
