// What the node's network configuration says each RoCE netdev should have, against what it has:
// a static address (IPv4 or IPv6) the deciding manager gives a rail and that is not on it took
// the rail's RoCE v2 GID for that address with it.

#include <arpa/inet.h>

#include <optional>

#include "core/text.h"
#include "diagnose/check_groups.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// An address as written in a configuration ("10.0.0.2/24", "fd00:0::2/64", prefix optional), in
// network byte order so that two spellings of one IPv6 address compare equal.
struct WrittenAddress {
  AddressFamily family = AddressFamily::kIpv4;
  std::string bytes;
  std::optional<int> prefix;
};

// The bytes of `address` in `family`; nullopt for anything else (a typo, the other family).
std::optional<std::string> AddressBytes(AddressFamily family, const std::string& address) {
  in6_addr parsed{};  // large enough for either family
  const int af = family == AddressFamily::kIpv4 ? AF_INET : AF_INET6;
  if (address.size() > INET6_ADDRSTRLEN || inet_pton(af, address.c_str(), &parsed) != 1)
    return std::nullopt;
  return std::string(reinterpret_cast<const char*>(&parsed), af == AF_INET ? 4 : 16);
}

std::optional<WrittenAddress> ParseWritten(const std::string& text) {
  const size_t slash = text.find('/');
  const std::string address = text.substr(0, slash);
  WrittenAddress written;
  written.family =
      address.find(':') == std::string::npos ? AddressFamily::kIpv4 : AddressFamily::kIpv6;
  std::optional<std::string> bytes = AddressBytes(written.family, address);
  if (!bytes) return std::nullopt;
  written.bytes = std::move(*bytes);
  if (slash == std::string::npos) return written;
  long long prefix = -1;
  const int longest = written.family == AddressFamily::kIpv4 ? 32 : 128;
  if (!ParseInteger(text.substr(slash + 1), &prefix) || prefix < 0 || prefix > longest)
    return std::nullopt;
  written.prefix = static_cast<int>(prefix);
  return written;
}

bool Holds(const NetdevState& live, const WrittenAddress& written) {
  for (const IpAddress& a : live.addresses) {
    if (a.family != written.family) continue;
    if (AddressBytes(a.family, a.address) == written.bytes &&
        (!written.prefix || a.prefix_len == *written.prefix))
      return true;
  }
  return false;
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
        std::optional<WrittenAddress> written = ParseWritten(configured.address);
        if (!written || Holds(live->second, *written)) continue;
        const bool ipv4 = written->family == AddressFamily::kIpv4;
        out.push_back(
            {SeverityOf("configured_address_missing"), "configured_address_missing", netdev,
             netdev + " (" + PortName(device.name, port.number) + ") does not have " +
                 configured.address + ", which its configuration gives it (" + configured.where +
                 ", " + NetdevManagerLabel(config->managed_by) +
                 (ipv4 ? "): the rail's RoCE v2 IPv4 GID for it is gone too, and NCCL "
                         "(NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) cannot use the rail."
                       : "): the rail's RoCE v2 GID for it is gone too, and a job that uses "
                         "the rail over IPv6 (NCCL_IB_ADDR_FAMILY=AF_INET6) cannot."),
             "Bring the address back (`networkctl reconfigure " + netdev +
                 "`, `nmcli connection up <profile>`, `ifup " + netdev +
                 "`), check that its GID is back (`rocewatch diagnose`), then restart the jobs "
                 "that used the rail; find why it went in the manager's journal."});
      }
    }
}

}  // namespace rocewatch
