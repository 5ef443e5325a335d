// Checks that an RNIC netdev keeps its addresses (and so its GIDs) through a link flap: who
// configures it, and the settings that decide whether a carrier loss removes its IPs.

#include <set>

#include "core/duration.h"
#include "core/text.h"
#include "diagnose/check_groups.h"
#include "hostconfig/ini_file.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

std::string Evidence(const NetdevConfig& config) {
  return config.evidence.empty() ? std::string("no evidence recorded") : config.evidence.front();
}

const std::vector<IpAddress>* AddressesOf(const ConfigurationCheckInput& input,
                                          const std::string& netdev) {
  if (input.netdevs == nullptr) return nullptr;
  auto it = input.netdevs->find(netdev);
  return it == input.netdevs->end() ? nullptr : &it->second.addresses;
}

void CheckNetworkManager(const ConfigurationCheckInput& input, const NetdevConfig& config,
                         std::vector<Finding>& out) {
  if (config.managed_by != NetdevManager::kNetworkManager || config.nm_ignore_carrier) return;
  std::string running = input.host->network_manager
                            ? "NetworkManager is running (pid " +
                                  std::to_string(input.host->network_manager->pid) + ")"
                            : "no NetworkManager process was found";
  out.push_back(
      {SeverityOf(check_id::kNetworkManagerWithoutIgnoreCarrier),
       check_id::kNetworkManagerWithoutIgnoreCarrier, config.netdev,
       "NetworkManager manages " + config.netdev + " (" + Evidence(config) + "; " + running +
           ") and does not ignore its carrier (" + config.nm_ignore_carrier_evidence +
           "): a carrier loss deactivates the connection and removes its IP addresses; when the "
           "link returns the addresses come back and their RoCE GIDs can land at other indices "
           "while a job's QPs still hold the old ones (GID drift).",
       "Keep the addresses through carrier loss: add a file "
       "/etc/NetworkManager/conf.d/90-rnic-ignore-carrier.conf with \"[main]\" and "
       "\"ignore-carrier=interface-name:" +
           config.netdev +
           "\" (or * for all devices) and run `nmcli general reload`; or configure the RNIC "
           "addresses with ifupdown (the `networking` service) and mark the device unmanaged "
           "in NetworkManager, the fix chosen after the GID-drift incident."});
}

// networkd drops a link's configuration on carrier loss unless IgnoreCarrierLoss= (default:
// the value of ConfigureWithoutCarrier=) covers the outage or KeepConfiguration= keeps static
// configuration.
void CheckNetworkd(const ConfigurationCheckInput& input, const NetdevConfig& config,
                   std::vector<Finding>& out) {
  if (config.managed_by != NetdevManager::kSystemdNetworkd) return;
  std::optional<bool> keep =
      config.keep_configuration ? ParseIniBool(*config.keep_configuration) : std::optional<bool>();
  if (keep.value_or(false) || config.keep_configuration == "static") return;

  std::string ignore_text;
  std::optional<Duration> grace;
  if (config.ignore_carrier_loss) {
    ignore_text = "IgnoreCarrierLoss=" + *config.ignore_carrier_loss;
    if (auto b = ParseIniBool(*config.ignore_carrier_loss)) {
      if (*b) return;
      grace = Duration::zero();
    } else {
      grace = ParseSystemdTimespan(*config.ignore_carrier_loss);
    }
  } else {
    bool without_carrier = config.configure_without_carrier &&
                           ParseIniBool(*config.configure_without_carrier).value_or(false);
    if (without_carrier) return;
    ignore_text = "IgnoreCarrierLoss= not set (defaults to ConfigureWithoutCarrier=" +
                  config.configure_without_carrier.value_or("no") + ")";
    grace = Duration::zero();
  }
  if (grace && *grace >= input.flap_ride_through) return;
  std::string network_file =
      config.network_file.empty() ? "its .network file" : config.network_file;
  out.push_back(
      {SeverityOf(check_id::kNetworkdDropsAddressesOnCarrierLoss),
       check_id::kNetworkdDropsAddressesOnCarrierLoss, config.netdev,
       "systemd-networkd manages " + config.netdev + " (" + Evidence(config) + ") with " +
           ignore_text + " and KeepConfiguration=" + config.keep_configuration.value_or("(unset)") +
           " in " + network_file + ": a carrier loss shorter than " +
           FormatDuration(input.flap_ride_through) +
           " already drops the link's addresses and routes, and their RoCE GIDs can come back at "
           "other indices.",
       "Set IgnoreCarrierLoss=yes (or a time span of at least " +
           FormatDuration(input.flap_ride_through) + ") in the [Network] section of " +
           network_file +
           " (netplan: `ignore-carrier: true` on the device), then `networkctl "
           "reload`."});
}

void CheckIpv6KeepAddrOnDown(const ConfigurationCheckInput& input, const NetdevConfig& config,
                             std::vector<Finding>& out) {
  if (!config.keep_addr_on_down) return;  // IPv6 disabled or unreadable
  // The kernel uses the interface's value unless it is 0, then the "all" value; > 0 keeps.
  long long effective = *config.keep_addr_on_down != 0 ? *config.keep_addr_on_down
                                                       : config.keep_addr_on_down_all.value_or(0);
  if (effective > 0) return;
  const std::vector<IpAddress>* addresses = AddressesOf(input, config.netdev);
  if (addresses == nullptr) return;
  std::vector<std::string> global;
  for (const IpAddress& a : *addresses)
    if (IsGlobalIpv6(a)) global.push_back(a.ToString());
  if (global.empty()) return;
  out.push_back(
      {SeverityOf(check_id::kIpv6FlushedOnLinkDown), check_id::kIpv6FlushedOnLinkDown,
       config.netdev,
       config.netdev + " has global IPv6 address" + (global.size() > 1 ? "es " : " ") +
           JoinList(global) + " and net.ipv6.conf." + config.netdev +
           ".keep_addr_on_down=" + std::to_string(*config.keep_addr_on_down) +
           " (all=" + std::to_string(config.keep_addr_on_down_all.value_or(0)) +
           "): the kernel flushes " + (global.size() > 1 ? "them" : "it") +
           " when the link goes down, and the RoCE GIDs are deleted and re-added, possibly at "
           "other indices.",
       "sysctl -w net.ipv6.conf." + config.netdev +
           ".keep_addr_on_down=1 and persist it in /etc/sysctl.d/ (it keeps static global "
           "addresses without expiry through a link down)."});
}

void CheckForeignPolicyRules(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  const HostNetworkConfig& host = *input.host;
  if (input.policy_rules == nullptr || !host.networkd || !host.networkd_manages_foreign_rules)
    return;
  // Rules tied to an RNIC netdev: by interface, or from one of its addresses.
  std::set<std::string> rnic_addresses, rnic_netdevs;
  for (const std::string& netdev : RnicNetdevs(*input.snapshot, RnicNetdevScope::kRoce)) {
    rnic_netdevs.insert(netdev);
    if (const std::vector<IpAddress>* addresses = AddressesOf(input, netdev))
      for (const IpAddress& a : *addresses) rnic_addresses.insert(a.address);
  }
  std::vector<std::string> rules;
  std::set<std::string> subjects;
  for (const PolicyRule& rule : *input.policy_rules) {
    const std::string& from = rule.src;
    bool tied = rnic_addresses.count(from) != 0 || rnic_netdevs.count(rule.iifname) != 0 ||
                rnic_netdevs.count(rule.oifname) != 0;
    if (!tied) continue;
    rules.push_back(rule.ToString());
    if (!rule.iifname.empty() && rnic_netdevs.count(rule.iifname)) subjects.insert(rule.iifname);
    if (!rule.oifname.empty() && rnic_netdevs.count(rule.oifname)) subjects.insert(rule.oifname);
    if (input.netdevs != nullptr)
      for (const auto& [name, state] : *input.netdevs)
        for (const IpAddress& a : state.addresses)
          if (a.address == from && rnic_netdevs.count(name)) subjects.insert(name);
  }
  if (rules.empty()) return;
  out.push_back(
      {SeverityOf(check_id::kNetworkdManagesForeignPolicyRules),
       check_id::kNetworkdManagesForeignPolicyRules,
       JoinList({subjects.begin(), subjects.end()}, 64),
       "systemd-networkd is running (pid " + std::to_string(host.networkd->pid) +
           ") and manages foreign routing policy rules (" + host.manage_foreign_rules_evidence +
           ") while " + std::to_string(rules.size()) +
           (rules.size() > 1 ? " policy rules of the RNIC netdevs exist ("
                             : " policy rule of the RNIC netdevs exists (") +
           JoinList(rules, 4) +
           "): a restart of systemd-networkd (e.g. by an unattended upgrade) removes every rule "
           "it did not create, and the rails lose their policy routing.",
       "Set ManageForeignRoutingPolicyRules=no in the [Network] section of "
       "/etc/systemd/networkd.conf (or a drop-in in /etc/systemd/networkd.conf.d/) and restart "
       "systemd-networkd in a maintenance window; or let networkd own these rules "
       "([RoutingPolicyRule] sections)."});
}

}  // namespace

void CheckAddressKeeping(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  if (input.host == nullptr) return;
  for (const std::string& netdev : RnicNetdevs(*input.snapshot, RnicNetdevScope::kRoce)) {
    const NetdevConfig* config = input.host->Find(netdev);
    if (config == nullptr) continue;
    CheckNetworkManager(input, *config, out);
    CheckNetworkd(input, *config, out);
    CheckIpv6KeepAddrOnDown(input, *config, out);
  }
  CheckForeignPolicyRules(input, out);
}

}  // namespace rocewatch
