#include "export/listen_address.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(ParseListenAddress, AcceptsPortOnlyAndIpv4Hosts) {
  EXPECT_EQ(ParseListenAddress(":9879")->ToText(), "9879");
  EXPECT_EQ(ParseListenAddress("0.0.0.0:9879")->ToText(), "9879");
  EXPECT_EQ(ParseListenAddress("127.0.0.1:0")->ToText(), "127.0.0.1:0");
  EXPECT_EQ(ParseListenAddress("localhost:80")->ToText(), "127.0.0.1:80");
}

TEST(ParseListenAddress, RejectsWhatCivetwebCannotServe) {
  for (const char* bad : {"", "9879", ":", ":abc", ":65536", "host:1", "[::1]:9879", "::1:9879",
                          "10.0.0.1:99999", "1.2.3:80"}) {
    auto parsed = ParseListenAddress(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.status().message().find("--listen"), std::string::npos);
  }
}

}  // namespace
}  // namespace rocewatch
