#pragma once
// --listen HOST:PORT (default 127.0.0.1:9879, loopback; ":9879" is every IPv4 interface). The
// metrics server listens on IPv4 only: an IPv6 host is rejected with a clear message rather than
// failing at bind time.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace rocewatch {

struct ListenAddress {
  std::string host;   // empty: all IPv4 interfaces
  uint16_t port = 0;  // 0: any free port (tests)

  // "9879" (every interface) or "127.0.0.1:9879", for messages.
  std::string ToText() const;
};

// Accepts ":PORT", "HOST:PORT" with an IPv4 address or "localhost". Errors: InvalidArgument.
StatusOr<ListenAddress> ParseListenAddress(std::string_view text);

}  // namespace rocewatch
