#include "export/http_fetch.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(ParseHttpUrlTest, HostPortAndPath) {
  StatusOr<HttpUrl> url = ParseHttpUrl("http://127.0.0.1:9879");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 9879);
  EXPECT_EQ(url->path, "/");
  url = ParseHttpUrl("http://node-7/rocewatch/");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->port, 80);
  EXPECT_EQ(url->path, "/rocewatch/");
}

TEST(ParseHttpUrlTest, BadUrlsSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"https://127.0.0.1:9879", "https is not supported"},
      {"127.0.0.1:9879", "not an http:// URL"},
      {"http://:9879", "no host"},
      {"http://h:0", "bad port"},
      {"http://h:99999", "bad port"},
      {"http://h:", "bad port"},
      {"http://[::1]:9879", "IPv4"},
  };
  for (const auto& [text, why] : cases) {
    StatusOr<HttpUrl> url = ParseHttpUrl(text);
    ASSERT_FALSE(url.ok()) << text;
    EXPECT_NE(url.status().message().find(why), std::string::npos) << url.status().message();
  }
}

TEST(FetchUrlTest, NothingListeningIsUnavailableQuickly) {
  // Port 1 on loopback: refused at once (nothing there, no root needed).
  StatusOr<FetchedPage> page = FetchUrl({"127.0.0.1", 1, "/", ""}, std::chrono::seconds(2));
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(page.status().message().find("refused"), std::string::npos) << page.status().message();
}

}  // namespace
}  // namespace rocewatch
