#pragma once
// --listen HOST:PORT (contract default ":9879"). The embedded civetweb has no IPv6: an IPv6 host is
// rejected with a clear message rather than failing at bind time.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace rocewatch {

struct ListenAddress {
  std::string host;   // empty: all IPv4 interfaces
  uint16_t port = 0;  // 0: any free port (tests)

  // The civetweb listening_ports form: "9879" or "127.0.0.1:9879".
  std::string ToCivetweb() const;
};

// Accepts ":PORT", "HOST:PORT" with an IPv4 address or "localhost". Errors: InvalidArgument.
StatusOr<ListenAddress> ParseListenAddress(std::string_view text);

}  // namespace rocewatch
