#include "fabric/fabric_checks.h"

#include <cstdio>
#include <map>

#include "fabric/neighbor_labels.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

std::string Hex16(uint16_t value) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%04x", value);
  return text;
}

std::string Subject(const RailFarEnd& rail) { return rail.netdev; }

// "3,4" for the bitmap 0x18; "none" for 0.
std::string Priorities(uint8_t bitmap) {
  std::string out;
  for (int p = 0; p < 8; ++p)
    if (bitmap & (1u << p)) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out.empty() ? "none" : out;
}

void CheckOne(const RailFarEnd& rail, std::vector<Finding>& out) {
  const LldpFrame& f = *rail.neighbor;
  const std::string far_end = DescribeFarEnd(f);
  if (!f.IsSwitch()) {
    std::string caps = f.capabilities ? "capabilities supported " + Hex16(f.capabilities->supported)
                                      : "no capabilities TLV";
    out.push_back({SeverityOf("lldp_neighbor_not_switch"), "lldp_neighbor_not_switch",
                   Subject(rail),
                   rail.netdev + " (" + rail.port + ") has LLDP neighbor " + far_end +
                       ", which says it is neither a bridge nor a router (" + caps +
                       "): a back-to-back cable to another host, a wrong port, or a NIC's own "
                       "LLDP agent",
                   "check the cable of this rail against the cabling plan; if the neighbor is "
                   "the NIC's firmware LLDP agent, disable it so the switch's frames reach the "
                   "host"});
  }
  if (f.pfc && f.RoceV2Priority()) {
    uint8_t roce = *f.RoceV2Priority();
    if ((f.pfc->enabled & (1u << roce)) == 0)
      out.push_back({SeverityOf("switch_pfc_missing_roce_priority"),
                     "switch_pfc_missing_roce_priority", Subject(rail),
                     rail.netdev + ": switch " + far_end + " maps RoCE v2 (UDP 4791) to priority " +
                         std::to_string(roce) + " but enables PFC only on priorities bitmap " +
                         Hex16(f.pfc->enabled) +
                         ": RoCE traffic is not lossless on this link (drops, retransmissions, "
                         "slow or hung collectives)",
                     "make the switch port's PFC priorities and the RoCE priority agree (switch "
                     "QoS profile; on the host, the NIC's DCB/PFC settings and the RoCE traffic "
                     "class)"});
  }
  if (f.pfc && rail.host_pfc_enabled && f.pfc->enabled != *rail.host_pfc_enabled)
    out.push_back(
        {SeverityOf("switch_pfc_differs_from_host"), "switch_pfc_differs_from_host", Subject(rail),
         rail.netdev + ": switch " + far_end + " enables PFC on priorities " +
             Priorities(f.pfc->enabled) + ", the host on " + Priorities(*rail.host_pfc_enabled) +
             ": on the priorities they disagree on, one side pauses while the other "
             "drops, so traffic there is not lossless (drops, retransmissions, slow "
             "or hung collectives)",
         "make the host's PFC priorities (mlnx_qos -i " + rail.netdev +
             " --pfc ..., or DCBX willing mode) and the switch port's QoS profile "
             "agree"});
  if (f.max_frame_size && rail.mtu && *f.max_frame_size < *rail.mtu + kEthernetOverheadBytes)
    out.push_back({SeverityOf("switch_max_frame_too_small"), "switch_max_frame_too_small",
                   Subject(rail),
                   rail.netdev + ": switch " + far_end + " accepts frames of at most " +
                       std::to_string(*f.max_frame_size) + " bytes, below the netdev's MTU " +
                       std::to_string(*rail.mtu) + " + " + std::to_string(kEthernetOverheadBytes) +
                       " bytes of header: full-size frames are dropped by the switch",
                   "raise the switch port's MTU, or lower the netdev's MTU (and the RoCE path "
                   "MTU) to fit"});
}

}  // namespace

std::vector<Finding> CheckFabric(const FabricObservation& observation) {
  std::vector<Finding> out;
  std::map<std::pair<std::string, std::string>, std::vector<const RailFarEnd*>> by_switch_port;
  bool any_neighbor = false;
  for (const RailFarEnd& rail : observation.rails) {
    if (rail.neighbor == nullptr) continue;
    any_neighbor = true;
    CheckOne(rail, out);
    by_switch_port[{rail.neighbor->chassis_id.value, rail.neighbor->port_id.value}].push_back(
        &rail);
  }
  for (const auto& [switch_port, rails] : by_switch_port) {
    if (rails.size() < 2) continue;
    std::string names;
    for (const RailFarEnd* rail : rails) names += (names.empty() ? "" : ", ") + rail->netdev;
    for (const RailFarEnd* rail : rails)
      out.push_back(
          {SeverityOf("lldp_shared_switch_port"), "lldp_shared_switch_port", Subject(*rail),
           "rails " + names + " all report LLDP neighbor " + DescribeFarEnd(*rail->neighbor) +
               ": they cannot all be cabled to it (a switch or hub between them, or "
               "frames leaking between rails)",
           "trace these rails' cables; each rail should reach its own switch port"});
  }
  if (!any_neighbor && !observation.rails.empty() && observation.listening_for >= kLldpAbsentAfter)
    out.push_back(
        {SeverityOf("lldp_absent"), "lldp_absent", "node",
         "no LLDP frame on any of " + std::to_string(observation.rails.size()) + " rail(s) in " +
             std::to_string(static_cast<long long>(ToSeconds(observation.listening_for))) +
             " s: the switches run no LLDP, or the NICs' firmware agents consume it",
         "nothing to do if the fabric runs no LLDP; otherwise enable LLDP on the leaf "
         "ports, or disable the NICs' firmware LLDP agents"});
  return out;
}

}  // namespace rocewatch
