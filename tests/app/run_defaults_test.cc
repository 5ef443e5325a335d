// The daemon's network defaults: loopback, not every interface; the local socket on.
#include <gtest/gtest.h>

#include "daemon/options.h"

namespace rocewatch {
namespace {

TEST(RunDefaultsTest, TheDaemonListensOnLoopbackAndServesTheLocalSocketByDefault) {
  const RunOptions options;
  EXPECT_EQ(options.listen.host, "127.0.0.1");
  EXPECT_EQ(options.listen.port, 9879);
  EXPECT_EQ(options.api_socket, "/run/rocewatch/rocewatch.sock");
  // ":9879" still means every interface.
  EXPECT_EQ(ParseListenAddress(":9879")->host, "");
  EXPECT_EQ(ParseListenAddress("10.0.0.5:9879")->host, "10.0.0.5");
}

TEST(RunDefaultsTest, DiagnoseAcceptsTheLocalSocketAsDaemonUrl) {
  auto url = ParseHttpUrl("unix:/run/rocewatch/rocewatch.sock");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->unix_socket, "/run/rocewatch/rocewatch.sock");
  EXPECT_EQ(url->path, "/");
  EXPECT_FALSE(ParseHttpUrl("unix:").ok());
  EXPECT_FALSE(ParseHttpUrl("unix:" + std::string(200, 'a')).ok());
}

}  // namespace
}  // namespace rocewatch
