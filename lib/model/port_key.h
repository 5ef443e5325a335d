#pragma once
// Names one RDMA port: device and 1-based port number.

#include <compare>
#include <cstdint>
#include <string>

namespace rocewatch {

struct PortKey {
  std::string device;  // mlx5_0
  uint32_t port = 0;   // 1-based

  std::string ToString() const { return device + "/" + std::to_string(port); }  // "mlx5_0/1"
  auto operator<=>(const PortKey&) const = default;
};

}  // namespace rocewatch
