#include "diagnose/gid_table_checks.h"

#include <set>

#include "model/check_policy.h"

namespace rocewatch {
namespace {

std::string Subject(const Device& device, const Port& port) {
  return device.name + "/" + std::to_string(port.number);
}

std::string JoinIndices(const std::vector<uint32_t>& indices) {
  std::string out;
  for (uint32_t i : indices) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

}  // namespace

std::vector<uint32_t> HolesBelowNonDefaultGids(const Port& port) {
  std::set<uint32_t> occupied;
  uint32_t highest_non_default = 0;
  bool any_non_default = false;
  for (const GidEntry& gid : port.gids) {
    occupied.insert(gid.index);
    if (!IsLinkLocalGid(gid.gid)) {
      any_non_default = true;
      highest_non_default = std::max(highest_non_default, gid.index);
    }
  }
  std::vector<uint32_t> holes;
  if (!any_non_default || port.gid_table_unlistable) return holes;
  for (uint32_t i = 0; i < highest_non_default; ++i)
    if (occupied.count(i) == 0 && !port.GidSlotUnreadable(i)) holes.push_back(i);
  return holes;
}

std::vector<Finding> CheckPortsAndGidTables(const NodeSnapshot& snapshot,
                                            const std::map<std::string, NetdevState>& netdevs) {
  std::vector<Finding> findings;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      const std::string subject = Subject(device, port);
      // An unreadable state is unknown, not down: read_failed names the file.
      if (!port.IsActive() && !port.AttributeUnreadable("state")) {
        findings.push_back(
            {SeverityOf("port_not_active"), "port_not_active", subject,
             "port state is " + (port.state.empty() ? std::string("unknown") : port.state) +
                 " (phys_state " + (port.phys_state.empty() ? "unknown" : port.phys_state) + ")",
             "check the cable, transceiver and switch port; `ip link show` the port's netdev; "
             "look for link_downed and symbol_error in `rocewatch diagnose --watch 30s`"});
      }

      if (port.IsRoce()) {
        for (const std::string& netdev : port.netdevs) {
          auto state = netdevs.find(netdev);
          if (state == netdevs.end()) continue;
          for (const IpAddress& address : state->second.addresses) {
            if (address.family != AddressFamily::kIpv4) continue;
            std::optional<std::string> expected = GidOfAddress(address.address);
            if (!expected) continue;
            bool found = false;
            for (const GidEntry& gid : port.gids)
              if (gid.gid == *expected && gid.type == GidType::kRoceV2) found = true;
            // Not found among what could be read: unknown, not missing (read_failed says so).
            if (found || !port.GidTableKnown()) continue;
            findings.push_back(
                {SeverityOf("ipv4_without_roce_v2_gid"), "ipv4_without_roce_v2_gid", subject,
                 netdev + " has " + address.ToString() + " but the port has no RoCE v2 GID " +
                     *expected + ": NCCL (NCCL_IB_ROCE_VERSION_NUM=2, AF_INET) finds no usable GID",
                 "check `rocewatch diagnose` again in a few seconds (the kernel adds GIDs "
                 "asynchronously); if it persists, re-add the address (`ip addr del` / `ip addr "
                 "add`) or reload the driver, then restart the jobs on this node"});
          }
        }
      }

      std::vector<uint32_t> holes = HolesBelowNonDefaultGids(port);
      if (!holes.empty()) {
        const GidEntry* above = nullptr;
        for (const GidEntry& gid : port.gids)
          if (!IsLinkLocalGid(gid.gid) && gid.index > holes.back()) {
            above = &gid;
            break;
          }
        std::string evidence = "empty slot(s) " + JoinIndices(holes) + " below";
        if (above != nullptr) {
          std::optional<std::string> ip = Ipv4OfGid(above->gid);
          evidence += " " + std::string(GidTypeLabel(above->type)) + " GID " +
                      (ip ? *ip : above->gid) + " at index " + std::to_string(above->index) +
                      " on " + (above->netdev.empty() ? std::string("?") : above->netdev);
        }
        findings.push_back(
            {SeverityOf("gid_table_hole"), "gid_table_hole", subject,
             evidence + ": a GID was re-added while references (live QPs) held its old slot, so it "
                        "moved to a higher index; jobs that pinned the old index use a stale GID",
             "find the jobs using this RNIC and restart them (the holes free once they exit); "
             "use NCCL_IB_GID_INDEX=-1 (auto, NCCL >= 2.21.5) or pin the new index; keep RNIC "
             "addresses across carrier loss (NetworkManager ignore-carrier, networkd "
             "IgnoreCarrierLoss=, or ifupdown)"});
      }
    }
  }
  return findings;
}

}  // namespace rocewatch
