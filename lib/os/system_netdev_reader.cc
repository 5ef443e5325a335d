#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstdlib>

#include "os/netdev_reader.h"

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000  // <linux/if.h>, which clashes with <net/if.h>
#endif

namespace rocewatch {
namespace {

int PrefixLength(const sockaddr* mask) {
  if (mask == nullptr) return 0;
  const unsigned char* bytes;
  size_t len;
  if (mask->sa_family == AF_INET) {
    bytes = reinterpret_cast<const unsigned char*>(
        &reinterpret_cast<const sockaddr_in*>(mask)->sin_addr);
    len = 4;
  } else if (mask->sa_family == AF_INET6) {
    bytes = reinterpret_cast<const sockaddr_in6*>(mask)->sin6_addr.s6_addr;
    len = 16;
  } else {
    return 0;
  }
  int bits = 0;
  for (size_t i = 0; i < len; ++i) bits += __builtin_popcount(bytes[i]);
  return bits;
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::map<std::string, NetdevObservation> SystemNetdevReader::Read(
    const std::vector<std::string>& names) {
  std::map<std::string, NetdevObservation> out;
  for (const std::string& name : names) out[name].state.name = name;

  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* ifa = list; ifa != nullptr; ifa = ifa->ifa_next) {
      auto it = out.find(ifa->ifa_name);
      if (it == out.end()) continue;
      NetdevObservation& obs = it->second;
      obs.in_namespace = true;
      obs.carrier_known = true;
      obs.state.admin_up = (ifa->ifa_flags & IFF_UP) != 0;
      obs.state.carrier = (ifa->ifa_flags & IFF_LOWER_UP) != 0;
      if (ifa->ifa_addr == nullptr) continue;
      char text[INET6_ADDRSTRLEN] = {};
      IpAddress address;
      if (ifa->ifa_addr->sa_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(ifa->ifa_addr)->sin_addr, text,
                  sizeof(text));
        address.family = AddressFamily::kIpv4;
      } else if (ifa->ifa_addr->sa_family == AF_INET6) {
        const in6_addr& a6 = reinterpret_cast<sockaddr_in6*>(ifa->ifa_addr)->sin6_addr;
        inet_ntop(AF_INET6, &a6, text, sizeof(text));
        address.family = AddressFamily::kIpv6;
        address.link_local = IN6_IS_ADDR_LINKLOCAL(&a6);
      } else {
        continue;
      }
      address.address = text;
      address.prefix_len = static_cast<uint8_t>(PrefixLength(ifa->ifa_netmask));
      obs.state.addresses.push_back(address);
    }
    freeifaddrs(list);
  }

  for (auto& [name, obs] : out) {
    std::sort(obs.state.addresses.begin(), obs.state.addresses.end());
    const std::string dir = paths_.NetClassDir() + "/" + name;
    if (auto ifindex = fs_.ReadFile(dir + "/ifindex"); ifindex.ok())
      obs.state.ifindex = std::atoi(ifindex->c_str());
    if (auto oper = fs_.ReadFile(dir + "/operstate"); oper.ok())
      obs.state.operstate = Trimmed(*oper);
    if (auto changes = fs_.ReadFile(dir + "/carrier_changes"); changes.ok())
      obs.state.carrier_changes = std::strtoull(changes->c_str(), nullptr, 10);
    if (!obs.in_namespace) {
      if (auto carrier = fs_.ReadFile(dir + "/carrier"); carrier.ok() && !carrier->empty()) {
        obs.carrier_known = (*carrier)[0] == '0' || (*carrier)[0] == '1';
        obs.state.carrier = (*carrier)[0] == '1';
      }
    }
  }
  return out;
}

}  // namespace rocewatch
