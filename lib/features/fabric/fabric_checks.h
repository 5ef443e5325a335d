#pragma once
// Checks of each rail's far end, from its LLDP neighbor (docs/detection.md, "Fabric checks"). Pure:
// the neighbors and the netdevs' MTUs in, findings out.
//   lldp_neighbor_not_switch (warning)  the neighbor supports neither bridge nor router: a
//                                       back-to-back cable, a host, or a NIC's own LLDP agent
//   lldp_shared_switch_port (warning)   two rails report the same chassis and port
//   switch_pfc_missing_roce_priority (critical)
//                                       the switch maps RoCE v2 to a priority its PFC TLV does not
//                                       enable: lossless traffic is not lossless
//   switch_pfc_differs_from_host (critical)
//                                       the switch's PFC TLV and the host's own PFC
//                                       configuration (DCB) enable different priorities: one
//                                       side pauses a priority the other drops
//   switch_max_frame_too_small (warning) the switch port's maximum frame size is below the
//                                       netdev's MTU plus the Ethernet header and FCS (18 bytes)
//   lldp_absent (info)                  rocewatch has listened on every rail for a while and no
//                                       rail has a neighbor (many fabrics run no LLDP)

#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "lldp/lldp_frame.h"
#include "model/finding.h"

namespace rocewatch {

struct RailFarEnd {
  std::string netdev;
  std::string port;                         // "mlx5_0/1"
  const LldpFrame* neighbor = nullptr;      // null: no neighbor (now)
  std::optional<int> mtu;                   // the netdev's MTU, when known
  std::optional<uint8_t> host_pfc_enabled;  // the host's PFC priorities (DCB), when known
};

struct FabricObservation {
  std::vector<RailFarEnd> rails;  // the rails rocewatch receives LLDP on
  Duration listening_for{};       // since the first of them opened
};

// How long rocewatch listens before it says no rail has LLDP: three default transmit intervals.
inline constexpr Duration kLldpAbsentAfter = std::chrono::seconds(90);
// Ethernet header (14) and FCS (4) on top of the MTU; a VLAN tag would add 4 more.
inline constexpr int kEthernetOverheadBytes = 18;

std::vector<Finding> CheckFabric(const FabricObservation& observation);

}  // namespace rocewatch
