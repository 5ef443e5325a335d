#include "export/listen_address.h"

#include <arpa/inet.h>

namespace rocewatch {

std::string ListenAddress::ToText() const {
  if (host.empty()) return std::to_string(port);
  return host + ":" + std::to_string(port);
}

StatusOr<ListenAddress> ParseListenAddress(std::string_view text) {
  auto invalid = [&](const std::string& why) {
    return Status::InvalidArgument("invalid --listen '" + std::string(text) + "': " + why +
                                   " (use HOST:PORT or :PORT, e.g. :9879 or 127.0.0.1:9879)");
  };
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return invalid("missing ':PORT'");
  std::string host(text.substr(0, colon));
  std::string_view port_text = text.substr(colon + 1);
  if (port_text.empty() || port_text.size() > 5) return invalid("bad port");
  unsigned port = 0;
  for (char c : port_text) {
    if (c < '0' || c > '9') return invalid("bad port");
    port = port * 10 + static_cast<unsigned>(c - '0');
  }
  if (port > 65535) return invalid("port out of range");
  if (host == "localhost") host = "127.0.0.1";
  if (host == "0.0.0.0") host.clear();
  if (!host.empty()) {
    if (host.find(':') != std::string::npos || host.front() == '[')
      return invalid("IPv6 is not supported by the metrics server");
    in_addr addr;
    if (inet_pton(AF_INET, host.c_str(), &addr) != 1) return invalid("host is not an IPv4 address");
  }
  return ListenAddress{host, static_cast<uint16_t>(port)};
}

}  // namespace rocewatch
