#pragma once
// systemd-networkd's evidence on a host:
// - /run/systemd/netif/links/<ifindex>: ADMIN_STATE= (pending, initialized, configuring,
//   configured, unmanaged, failed, linger), NETWORK_FILE=, NETWORK_FILE_DROPINS= (runtime);
// - the .network file and its drop-ins: [Network] IgnoreCarrierLoss=, ConfigureWithoutCarrier=,
//   KeepConfiguration=;
// - networkd.conf and networkd.conf.d: [Network] ManageForeignRoutingPolicyRules= (default yes).

#include "hostconfig/host_network_config.h"

namespace rocewatch {

// Adds networkd's facts about `config.netdev`. Returns true when the runtime state says networkd
// manages the link (a NETWORK_FILE and an ADMIN_STATE other than unmanaged/linger).
bool ReadNetworkdLink(const FileSystem& host, NetdevConfig& config);

// Fills networkd_manages_foreign_rules and its evidence.
void ReadNetworkdConf(const FileSystem& host, HostNetworkConfig& config);

}  // namespace rocewatch
