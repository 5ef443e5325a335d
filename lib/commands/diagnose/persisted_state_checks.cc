#include "diagnose/persisted_state_checks.h"

#include <ctime>
#include <set>

#include "diagnose/check_groups.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

bool HasRoceV2Ipv4Gid(const Port& port) {
  for (const GidEntry& gid : port.gids)
    if (gid.type == GidType::kRoceV2 && IsIpv4MappedGid(gid.gid)) return true;
  return false;
}

bool HasAddress(const NetdevState& state, const std::string& ipv4) {
  for (const IpAddress& a : state.addresses)
    if (a.family == AddressFamily::kIpv4 && a.address == ipv4) return true;
  return false;
}

std::string UtcTime(double unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  if (unix_seconds <= 0 || gmtime_r(&t, &tm) == nullptr) return "an unknown time";
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

struct KnownAddress {
  std::string netdev;
  std::string ipv4;
  uint32_t index = 0;
};

// The RoCE v2 IPv4 GIDs the daemon last knew on a port: in its table and departed from it.
std::vector<KnownAddress> KnownAddresses(const KnownGidPort& known) {
  std::vector<KnownAddress> out;
  std::set<std::pair<std::string, std::string>> seen;
  auto add = [&](const std::string& gid, GidType type, const std::string& netdev, uint32_t index) {
    std::optional<std::string> ip = Ipv4OfGid(gid);
    if (type != GidType::kRoceV2 || !ip || netdev.empty()) return;
    if (seen.insert({netdev, *ip}).second) out.push_back({netdev, *ip, index});
  };
  for (const GidEntry& e : known.entries) add(e.gid, e.type, e.netdev, e.index);
  for (const auto& [identity, departed] : known.departed)
    add(identity.gid, identity.type, identity.netdev, departed.index);
  return out;
}

}  // namespace

std::vector<Finding> CheckAgainstPersistedState(const NodeSnapshot& snapshot,
                                                const std::map<std::string, NetdevState>& netdevs,
                                                const PersistedGidState& persisted,
                                                const std::string& boot_id,
                                                const std::string& state_path) {
  std::vector<Finding> out;
  if (boot_id.empty() || persisted.boot_id != boot_id) return out;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      if (!port.IsRoce() || !port.GidTableKnown() || HasRoceV2Ipv4Gid(port)) continue;
      auto known = persisted.state.tables.find({device.name, port.number});
      if (known == persisted.state.tables.end()) continue;
      std::vector<std::string> missing;
      for (const KnownAddress& k : KnownAddresses(known->second)) {
        auto live = netdevs.find(k.netdev);
        if (live == netdevs.end() || HasAddress(live->second, k.ipv4)) continue;
        missing.push_back(k.netdev + " " + k.ipv4 + " (RoCE v2 GID at index " +
                          std::to_string(k.index) + ")");
      }
      if (missing.empty()) continue;
      const std::string name = PortName(device.name, port.number);
      out.push_back(
          {SeverityOf(check_id::kRailAddressMissing), check_id::kRailAddressMissing, name,
           name + " has no RoCE v2 IPv4 GID, and " + JoinList(missing) +
               ", which the daemon knew on this boot (its state file " + state_path + ", written " +
               UtcTime(persisted.written_at_unix_seconds) +
               "), is no longer there: NCCL (NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) finds no "
               "usable GID on this rail.",
           "Restore the address (`ip addr add <address>/<prefix> dev <netdev>`, or bring the "
           "connection up again: `nmcli connection up`, `networkctl reconfigure`, `ifup`), check "
           "that the GID comes back (`rocewatch diagnose`), then restart the jobs that used the "
           "rail; find why it went (`journalctl` of the network manager around that time)."});
    }
  return out;
}

}  // namespace rocewatch
