#pragma once
// The state of a network interface (netdev) as rtnetlink reports it.

#include <cstdint>
#include <string>
#include <vector>

namespace rocewatch {

enum class AddressFamily { kIpv4, kIpv6 };
const char* AddressFamilyLabel(AddressFamily family);  // "ipv4" / "ipv6"

struct IpAddress {
  AddressFamily family = AddressFamily::kIpv4;
  std::string address;  // "10.0.0.2", "fd00::2"
  uint8_t prefix_len = 0;
  bool link_local = false;  // fe80::/10

  std::string ToString() const { return address + "/" + std::to_string(prefix_len); }
  auto operator<=>(const IpAddress&) const = default;
};

struct NetdevState {
  std::string name;
  int ifindex = 0;
  bool admin_up = false;             // IFF_UP
  bool running = false;              // IFF_RUNNING
  bool lower_up = false;             // IFF_LOWER_UP
  bool carrier = false;              // IFLA_CARRIER / IFF_LOWER_UP
  std::string operstate;             // "UP", "DOWN", "LOWERLAYERDOWN", ... (IFLA_OPERSTATE)
  uint64_t carrier_changes = 0;      // IFLA_CARRIER_CHANGES (kernel counter)
  uint64_t carrier_up_count = 0;     // IFLA_CARRIER_UP_COUNT (Linux 4.16+; 0 when absent)
  uint64_t carrier_down_count = 0;   // IFLA_CARRIER_DOWN_COUNT
  std::vector<IpAddress> addresses;  // sorted

  bool operator==(const NetdevState&) const = default;
};

}  // namespace rocewatch
