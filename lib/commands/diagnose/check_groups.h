#pragma once
// The groups of configuration checks, one file each; RunConfigurationChecks calls them in this
// order. Internal to lib/diagnose.

#include <string>
#include <vector>

#include "core/text.h"
#include "diagnose/configuration_checks.h"
#include "model/rnic_netdevs.h"

namespace rocewatch {

// address_keeping_checks.cc: NetworkManager, systemd-networkd, IPv6 keep_addr_on_down.
void CheckAddressKeeping(const ConfigurationCheckInput& input, std::vector<Finding>& out);
// configured_address_checks.cc: static addresses the configuration gives a rail, not on it.
void CheckConfiguredAddresses(const ConfigurationCheckInput& input, std::vector<Finding>& out);
// nccl_checks.cc: settings of running NCCL jobs.
void CheckNcclSettings(const ConfigurationCheckInput& input, std::vector<Finding>& out);
// gid_layout_checks.cc: index consistency across rails, IPv6 addresses without a RoCE v2 GID.
void CheckGidLayout(const ConfigurationCheckInput& input, std::vector<Finding>& out);
// counter_checks.cc: link error counters, adaptive retransmission support.
void CheckCounters(const ConfigurationCheckInput& input, std::vector<Finding>& out);

// A global-scope IPv6 address: neither link-local (fe80::/10) nor loopback (::1) nor unspecified.
// The IPv6 checks look only at these: the others make no routable RoCE v2 GID.
bool IsGlobalIpv6(const IpAddress& address);

}  // namespace rocewatch
