#pragma once
// DCB netlink answers for tests, byte by byte as the kernel's dcbnl_ieee_fill lays them out:
// netlink attributes (length, type, payload padded to 4 bytes), nested where the kernel nests.

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace rocewatch {

// One netlink attribute: header, payload, padding to 4 bytes.
std::vector<uint8_t> NetlinkAttr(uint16_t type, const std::vector<uint8_t>& payload);
std::vector<uint8_t> Concat(std::initializer_list<std::vector<uint8_t>> parts);
// A struct ieee_pfc with `capability` and `enabled`.
std::vector<uint8_t> IeeePfcPayload(uint8_t capability, uint8_t enabled);
// The attributes of a DCB_CMD_IEEE_GET answer for netdev "ens1" whose PFC enables the priorities
// of the `enabled` bitmap (an mlx5 port: ETS, PFC, DCBX IEEE).
std::vector<uint8_t> DcbIeeeAnswer(uint8_t enabled, uint8_t capability = 8);

}  // namespace rocewatch
