// ParseListenAddress (lib/export/listen_address.h): --listen and ROCEWATCH_LISTEN.
#include <arpa/inet.h>

#include <cstddef>
#include <cstdint>

#include "export/listen_address.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<ListenAddress> address = ParseListenAddress(fuzz::AsText(data, size));
  if (!address.ok()) return 0;
  if (!address->host.empty()) {
    in_addr parsed;
    FUZZ_CHECK(inet_pton(AF_INET, address->host.c_str(), &parsed) == 1);
  }
  // The text form parses back to the same address (with a ':' for the bare port form).
  std::string text = address->ToText();
  StatusOr<ListenAddress> again = ParseListenAddress(address->host.empty() ? ":" + text : text);
  FUZZ_CHECK(again.ok() && again->host == address->host && again->port == address->port);
  return 0;
}
