#include "export/http_request.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(HttpRequestTest, ACompleteHeadGivesMethodPathWithoutQueryAndAcceptEncoding) {
  HttpRequestHead head;
  ASSERT_EQ(ParseRequestHead("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\naccept-ENCODING:  gzip \r\n"
                             "\r\n",
                             &head),
            HeadVerdict::kComplete);
  EXPECT_EQ(head.method, "GET");
  EXPECT_EQ(head.path, "/metrics");
  EXPECT_EQ(head.accept_encoding, "gzip");
  ASSERT_EQ(ParseRequestHead("HEAD /healthz HTTP/1.0\n\n", &head), HeadVerdict::kComplete);
  EXPECT_EQ(head.method, "HEAD");
}

TEST(HttpRequestTest, AHeadWithoutItsBlankLineIsIncompleteUntilTooLarge) {
  HttpRequestHead head;
  EXPECT_EQ(ParseRequestHead("GET /metrics HTTP/1.1\r\nHost: a\r\n", &head),
            HeadVerdict::kIncomplete);
  EXPECT_EQ(ParseRequestHead("", &head), HeadVerdict::kIncomplete);
  std::string huge = "GET /metrics HTTP/1.1\r\nX: " + std::string(kMaxRequestHeadBytes, 'a');
  EXPECT_EQ(ParseRequestHead(huge, &head), HeadVerdict::kTooLarge);
  EXPECT_EQ(ParseRequestHead(huge + "\r\n\r\n", &head), HeadVerdict::kTooLarge);
}

TEST(HttpRequestTest, GarbageIsMalformed) {
  HttpRequestHead head;
  for (const char* bad :
       {"\r\n\r\n", "GET\r\n\r\n", "GET /metrics\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n",
        "GET /metrics HTTP/2\r\n\r\n", "GET /metrics HTTP/1.1\r\nno colon\r\n\r\n",
        "GET /a\x01 HTTP/1.1\r\n\r\n"})
    EXPECT_EQ(ParseRequestHead(bad, &head), HeadVerdict::kMalformed) << bad;
}

}  // namespace
}  // namespace rocewatch
