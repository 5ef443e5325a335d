// Checks of the GID tables as a whole: whether one pinned index can serve every rail, and whether
// every global IPv6 address has the RoCE v2 GID NCCL looks for. (Holes below IP GIDs and IPv4
// addresses without a RoCE v2 GID are the foundation's gid_table_hole and
// ipv4_without_roce_v2_gid: diagnose/gid_table_checks.h.)

#include <map>
#include <set>

#include "diagnose/check_groups.h"
#include "model/check_policy.h"
#include "model/gid.h"

namespace rocewatch {
namespace {

void CheckIndexAcrossRails(const NodeSnapshot& snapshot, std::vector<Finding>& out) {
  // The lowest RoCE v2 IPv4 GID index of each RoCE port.
  std::map<std::string, uint32_t> index_of;
  std::map<uint32_t, int> count;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      // With a slot unknown, the lowest index is unknown too (read_failed says so).
      if (!port.IsRoce() || !port.GidTableKnown()) continue;
      for (const GidEntry& gid : port.gids) {
        if (gid.type != GidType::kRoceV2 || !IsIpv4MappedGid(gid.gid)) continue;
        index_of[PortName(device.name, port.number)] = gid.index;
        ++count[gid.index];
        break;
      }
    }
  if (count.size() < 2) return;
  // The index most rails agree on (the lower one on a tie) is the reference.
  uint32_t common = count.begin()->first;
  for (const auto& [index, n] : count)
    if (n > count[common]) common = index;
  for (const auto& [port, index] : index_of) {
    if (index == common) continue;
    out.push_back(
        {SeverityOf(check_id::kRoceV2Ipv4GidIndexDiffers), check_id::kRoceV2Ipv4GidIndexDiffers,
         port,
         port + " has its RoCE v2 IPv4 GID at index " + std::to_string(index) + " while " +
             std::to_string(count[common]) + " of the node's " + std::to_string(index_of.size()) +
             " rails have it at index " + std::to_string(common) +
             ": a cluster-wide NCCL_IB_GID_INDEX=" + std::to_string(common) +
             " cannot hold on this rail.",
         "Find why the GID sits higher on this rail (an earlier flap with references held, or an "
         "extra address); after the jobs using the port end, re-add the address so the GID takes "
         "the lowest free slot, or stop pinning NCCL_IB_GID_INDEX (NCCL >= 2.21.5 picks per "
         "connection)."});
  }
}

void CheckIpv6HaveRoceV2Gids(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  if (input.netdevs == nullptr) return;
  // RoCE v2 GIDs by their netdev, over every RoCE port.
  std::map<std::string, std::set<std::string>> v2_by_netdev;
  std::map<std::string, std::string> port_of_netdev;
  std::set<std::string> unknown;  // netdevs of ports with unreadable GID slots: not judged
  for (const Device& device : input.snapshot->devices)
    for (const Port& port : device.ports) {
      if (!port.IsRoce()) continue;
      if (!port.GidTableKnown()) {
        unknown.insert(port.netdevs.begin(), port.netdevs.end());
        for (const GidEntry& gid : port.gids) unknown.insert(gid.netdev);
      }
      for (const std::string& n : port.netdevs)
        port_of_netdev.emplace(n, PortName(device.name, port.number));
      for (const GidEntry& gid : port.gids) {
        if (gid.type == GidType::kRoceV2) v2_by_netdev[gid.netdev].insert(gid.gid);
        port_of_netdev.emplace(gid.netdev, PortName(device.name, port.number));
      }
    }
  for (const std::string& netdev : RnicNetdevs(*input.snapshot, RnicNetdevScope::kRoce)) {
    auto state = input.netdevs->find(netdev);
    if (state == input.netdevs->end() || unknown.count(netdev) > 0) continue;
    std::vector<std::string> missing;
    for (const IpAddress& a : state->second.addresses) {
      if (!IsGlobalIpv6(a)) continue;
      std::optional<std::string> gid = GidOfAddress(a.address);
      if (gid && v2_by_netdev[netdev].count(*gid) == 0) missing.push_back(a.ToString());
    }
    if (missing.empty()) continue;
    out.push_back(
        {SeverityOf(check_id::kIpv6WithoutRoceV2Gid), check_id::kIpv6WithoutRoceV2Gid, netdev,
         netdev + " (" + port_of_netdev[netdev] + ") has " + JoinList(missing) +
             " but no RoCE v2 GID for " + (missing.size() > 1 ? "them" : "it") +
             ": NCCL with NCCL_IB_ADDR_FAMILY=AF_INET6 finds no usable GID for it and RDMA "
             "connections over it fail.",
         "Check that the port is RoCE v2 capable and the netdev is the RDMA device's (ndevs of "
         "the GID table); re-add the address (`ip addr del` / `ip addr add`) to trigger GID "
         "creation, and check `dmesg` for GID table errors (full table)."});
  }
}

}  // namespace

void CheckGidLayout(const ConfigurationCheckInput& input, std::vector<Finding>& out) {
  CheckIndexAcrossRails(*input.snapshot, out);
  CheckIpv6HaveRoceV2Gids(input, out);
}

}  // namespace rocewatch
