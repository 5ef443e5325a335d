// What the node's network configuration says each RoCE netdev should have, against what it has:
// a static IPv4 address the deciding manager gives a rail and that is not on it took the rail's
// RoCE v2 IPv4 GID with it.

#include <arpa/inet.h>

#include "core/text.h"
#include "diagnose/check_groups.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// The IPv4 address and prefix of "10.0.0.2/24" (prefix nullopt for "10.0.0.2"); nullopt for
// anything else (an IPv6 address, a typo).
std::optional<std::pair<std::string, std::optional<int>>> ParseIpv4(const std::string& text) {
  const size_t slash = text.find('/');
  const std::string address = text.substr(0, slash);
  in_addr parsed{};
  if (address.size() > 15 || inet_pton(AF_INET, address.c_str(), &parsed) != 1) return std::nullopt;
  if (slash == std::string::npos) return std::make_pair(address, std::optional<int>());
  long long prefix = -1;
  if (!ParseInteger(text.substr(slash + 1), &prefix) || prefix < 0 || prefix > 32)
    return std::nullopt;
  return std::make_pair(address, std::optional<int>(static_cast<int>(prefix)));
}

}  // namespace

void CheckConfiguredAddresses(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  if (input.host == nullptr || input.netdevs == nullptr) return;
  for (const Device& device : input.snapshot->devices)
    for (const Port& port : device.ports) {
      const std::string netdev = PrimaryNetdev(port);
      if (!port.IsRoce() || netdev.empty()) continue;
      const NetdevConfig* config = input.host->Find(netdev);
      auto live = input.netdevs->find(netdev);  // absent: not in this namespace, not judged
      if (config == nullptr || live == input.netdevs->end()) continue;
      for (const ConfiguredAddress& configured : config->configured_addresses) {
        auto ipv4 = ParseIpv4(configured.address);
        if (!ipv4) continue;
        bool present = false;
        for (const IpAddress& a : live->second.addresses)
          present = present || (a.family == AddressFamily::kIpv4 && a.address == ipv4->first &&
                                (!ipv4->second || a.prefix_len == *ipv4->second));
        if (present) continue;
        out.push_back(
            {SeverityOf("configured_address_missing"), "configured_address_missing", netdev,
             netdev + " (" + PortName(device.name, port.number) + ") does not have " +
                 configured.address + ", which its configuration gives it (" + configured.where +
                 ", " + NetdevManagerLabel(config->managed_by) +
                 "): the rail's RoCE v2 IPv4 GID for it is gone too, and NCCL "
                 "(NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) cannot use the rail.",
             "Bring the address back (`networkctl reconfigure " + netdev +
                 "`, `nmcli connection up <profile>`, `ifup " + netdev +
                 "`), check that its GID is back (`rocewatch diagnose`), then restart the jobs "
                 "that used the rail; find why it went in the manager's journal."});
      }
    }
}

}  // namespace rocewatch
