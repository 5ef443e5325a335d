#pragma once
// Builds NodeSnapshot values for pure tests (detectors, checks, exporter) without any sysfs.

#include <string>
#include <vector>

#include "model/node.h"

namespace rocewatch {

// A RoCE port on `netdev` with default GIDs at 0/1 and, for each IPv4 address, a v1/v2 pair at
// the next slots (starting at `first_ip_index`, default 2).
Port RocePort(uint32_t number, const std::string& netdev, const std::vector<std::string>& ipv4,
              uint32_t first_ip_index = 2);
Device RoceDevice(const std::string& name, const std::string& netdev,
                  const std::vector<std::string>& ipv4, uint32_t first_ip_index = 2);

}  // namespace rocewatch
