#pragma once
// Who configures each RNIC netdev's addresses, and the settings that decide whether a carrier
// loss removes them: the facts behind the configuration checks of `rocewatch diagnose`
// (docs/diagnose.md). Read from the host's files by ReadHostNetworkConfig, through a FileSystem
// that reads the host by its own paths (os/host_file_system.h: under --host-root and
// --sysfs-root); plain values afterwards, so the checks are pure.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "os/file_system.h"
#include "procfs/process_list.h"

namespace rocewatch {

enum class NetdevManager { kNetworkManager, kSystemdNetworkd, kIfupdown, kUnknown };
// The diagnose JSON's managed_by: "NetworkManager", "systemd-networkd", "ifupdown", "unknown".
const char* NetdevManagerLabel(NetdevManager manager);

// Addresses kept per netdev and manager: a configuration file is untrusted input (a bundle).
inline constexpr size_t kMaxConfiguredAddresses = 64;

// A static address the network configuration gives a netdev, and where it says so.
struct ConfiguredAddress {
  std::string address;  // as written: "10.0.0.2/24", or "10.0.0.2" without a prefix
  std::string where;    // "<file>:<line>", host paths as the host sees them
  bool operator==(const ConfiguredAddress&) const = default;
};

struct NetdevConfig {
  std::string netdev;
  int ifindex = 0;  // <sysfs>/class/net/<netdev>/ifindex; 0 when unreadable
  std::string mac;  // <sysfs>/class/net/<netdev>/address; empty when unreadable
  NetdevManager managed_by = NetdevManager::kUnknown;
  // Why: the deciding fact first ("/run/NetworkManager/devices/4: managed=true"), then other
  // facts seen. Host paths as the host sees them.
  std::vector<std::string> evidence;

  // The static addresses the deciding manager's configuration gives the netdev: systemd-networkd's
  // .network Address= (in [Network] or [Address], drop-ins included; an empty Address= clears the
  // list), the one NetworkManager profile naming it (ipv4/ipv6 addressN= and addresses=; none
  // when several profiles name it), ifupdown's `address` (with `netmask`) of its static stanzas.
  // Empty when it gives none (DHCP, or the manager is unknown).
  std::vector<ConfiguredAddress> configured_addresses;
  // Per manager, as read; ReadHostNetworkConfig copies the deciding one's to configured_addresses.
  std::map<NetdevManager, std::vector<ConfiguredAddress>> addresses_read;

  // NetworkManager: whether NetworkManager.conf (or conf.d) makes it ignore this device's carrier,
  // and the line that says so or the files that were searched.
  bool nm_ignore_carrier = false;
  std::string nm_ignore_carrier_evidence;

  // systemd-networkd: the .network file applied (NETWORK_FILE= of the runtime link state) and the
  // raw values of its [Network] settings after drop-ins; nullopt when not set.
  std::string network_file;
  std::optional<std::string> ignore_carrier_loss;
  std::optional<std::string> configure_without_carrier;
  std::optional<std::string> keep_configuration;

  // <procfs>/sys/net/ipv6/conf/<netdev>/keep_addr_on_down and .../all/..., nullopt if unreadable
  // (IPv6 disabled).
  std::optional<long long> keep_addr_on_down;
  std::optional<long long> keep_addr_on_down_all;
};

struct HostNetworkConfig {
  std::optional<ProcessEntry> network_manager;  // the running NetworkManager process
  std::optional<ProcessEntry> networkd;         // the running systemd-networkd ("systemd-network")
  // networkd.conf [Network] ManageForeignRoutingPolicyRules= after drop-ins (default yes), and
  // where that came from ("<file>:<line> ManageForeignRoutingPolicyRules=yes", or not set).
  bool networkd_manages_foreign_rules = true;
  std::string manage_foreign_rules_evidence = "not set in networkd.conf: defaults to yes";
  std::map<std::string, NetdevConfig> netdevs;  // by name

  const NetdevConfig* Find(const std::string& netdev) const;
};

// Reads everything above for `netdevs` (normally the RNIC netdevs of the inventory) from `host`,
// which reads host paths ("/etc/...", "/run/...", "/sys/class/net/...", "/proc/sys/...") where they
// are. Never fails: what cannot be read (or is refused) is absent and the netdev is "unknown".
HostNetworkConfig ReadHostNetworkConfig(const FileSystem& host,
                                        const std::vector<std::string>& netdevs,
                                        const std::vector<ProcessEntry>& processes);

}  // namespace rocewatch
