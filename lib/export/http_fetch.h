#pragma once
// A small HTTP/1.0 GET for `rocewatch diagnose --daemon URL`: plain http (the daemon serves no
// TLS), IPv4, one request per connection, every step bounded by one deadline (connect, send,
// receive), so an unreachable daemon costs at most `timeout`, never a hang.

#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

struct HttpUrl {
  std::string host;
  uint16_t port = 80;
  std::string path = "/";  // always starts with '/'
};

// "http://HOST[:PORT][/PATH]". Errors: InvalidArgument naming what is wrong (https, no host, a
// bad port).
StatusOr<HttpUrl> ParseHttpUrl(std::string_view text);

struct FetchedPage {
  int status = 0;
  std::string body;
};

// GET `url`. Errors: Unavailable with the reason in words (refused, timed out, name unknown);
// Corrupt for an answer that is not HTTP. Bodies beyond `max_body` bytes are an error.
StatusOr<FetchedPage> FetchUrl(const HttpUrl& url, Duration timeout, size_t max_body = 16 << 20);

}  // namespace rocewatch
