#pragma once
// NetworkManager's evidence on a host (docs/diagnose.md, "Who configures each RNIC netdev"):
// - /run/NetworkManager/devices/<ifindex>: [device] managed=, connection-uuid= (runtime state);
// - /etc/NetworkManager/system-connections/*.nmconnection and the netplan-generated profiles in
//   /run/NetworkManager/system-connections: [connection] interface-name=, uuid=;
// - ignore-carrier: [main] ignore-carrier=<device list> (also += and -=) and
//   [device*] ignore-carrier=<bool> with match-device=, in /usr/lib/NetworkManager/conf.d,
//   /run/NetworkManager/conf.d, /etc/NetworkManager/NetworkManager.conf, /etc/NetworkManager/conf.d
//   (that order, later files override).

#include <string>
#include <vector>

#include "hostconfig/host_network_config.h"

namespace rocewatch {

// Adds NetworkManager's facts about `config.netdev` to `config`: evidence lines, ignore-carrier.
// Returns true when the runtime state says NetworkManager manages the device.
bool ReadNetworkManagerRuntime(const FileSystem& host, NetdevConfig& config);
// True (with an evidence line) when a connection profile names the netdev.
bool ReadNetworkManagerProfiles(const FileSystem& host, NetdevConfig& config);
void ReadNetworkManagerIgnoreCarrier(const FileSystem& host, NetdevConfig& config);

}  // namespace rocewatch
