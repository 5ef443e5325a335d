#include "support/node_builder.h"

namespace rocewatch {

Port RocePort(uint32_t number, const std::string& netdev, const std::vector<std::string>& ipv4,
              uint32_t first_ip_index) {
  Port port;
  port.number = number;
  port.state = "ACTIVE";
  port.phys_state = "LinkUp";
  port.link_layer = "Ethernet";
  port.rate = "400 Gb/sec (4X NDR)";
  port.gid_table_len = 255;
  port.netdevs = {netdev};
  const std::string link_local = "fe80:0000:0000:0000:0e42:a1ff:fe00:000" + std::to_string(number);
  port.gids.push_back({number, 0, link_local, GidType::kRoceV1, netdev});
  port.gids.push_back({number, 1, link_local, GidType::kRoceV2, netdev});
  uint32_t index = first_ip_index;
  for (const std::string& ip : ipv4) {
    std::string gid = *GidOfAddress(ip);
    port.gids.push_back({number, index++, gid, GidType::kRoceV1, netdev});
    port.gids.push_back({number, index++, gid, GidType::kRoceV2, netdev});
  }
  return port;
}

Device RoceDevice(const std::string& name, const std::string& netdev,
                  const std::vector<std::string>& ipv4, uint32_t first_ip_index) {
  Device device;
  device.name = name;
  device.fw_ver = "28.39.1002";
  device.hca_type = "MT4129";
  device.node_guid = "0c42:a103:0000:0001";
  device.ports.push_back(RocePort(1, netdev, ipv4, first_ip_index));
  return device;
}

}  // namespace rocewatch
