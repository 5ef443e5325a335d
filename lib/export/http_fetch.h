#pragma once
// A small HTTP/1.0 GET for `rocewatch diagnose --daemon URL`: plain http (the daemon serves no
// TLS) over IPv4 or the daemon's local unix socket, one request per connection, every step bounded
// by one deadline (connect, send, receive), so an unreachable daemon costs at most `timeout`, never
// a hang.

#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

struct HttpUrl {
  std::string host;
  uint16_t port = 80;
  std::string path = "/";   // always starts with '/'
  std::string unix_socket;  // "unix:PATH": the socket's path (then host and port are unused)
};

// "http://HOST[:PORT][/PATH]" or "unix:PATH" (the request path is then "/"). Errors:
// InvalidArgument naming what is wrong (https, no host, a bad port, an empty socket path).
StatusOr<HttpUrl> ParseHttpUrl(std::string_view text);

struct FetchedPage {
  int status = 0;
  std::string body;
};

// GET `url`. Errors: Unavailable with the reason in words (refused, timed out, name unknown);
// Corrupt for an answer that is not HTTP. Bodies beyond `max_body` bytes are an error.
// True when `path` names a unix socket (not following a final link: the daemon's is never one).
bool IsUnixSocket(const std::string& path);

StatusOr<FetchedPage> FetchUrl(const HttpUrl& url, Duration timeout, size_t max_body = 16 << 20);

}  // namespace rocewatch
