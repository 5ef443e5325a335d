#pragma once
// A route (RTM_NEWROUTE / RTM_DELROUTE), reduced to what identifies it.

#include <cstdint>
#include <string>

#include "model/netdev.h"

namespace rocewatch {

// Multipath routes carry no oif and are kept with oif 0. Compared on every field.
struct Route {
  AddressFamily family = AddressFamily::kIpv4;
  std::string dst;  // "" for the default route
  uint8_t dst_len = 0;
  uint32_t table = 0;
  int oif = 0;          // RTA_OIF ifindex
  std::string gateway;  // RTA_GATEWAY
  std::string prefsrc;  // RTA_PREFSRC
  uint32_t metric = 0;  // RTA_PRIORITY

  // "default via 10.0.0.1 dev#4 table 100" (with the ifindex: names are resolved by the tracker).
  std::string ToString() const;
  auto operator<=>(const Route&) const = default;
};

}  // namespace rocewatch
