#include "model/netdev.h"

namespace rocewatch {

const char* AddressFamilyLabel(AddressFamily family) {
  return family == AddressFamily::kIpv4 ? "ipv4" : "ipv6";
}

}  // namespace rocewatch
