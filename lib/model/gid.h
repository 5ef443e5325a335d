#pragma once
// One entry of a port's GID table, as the kernel shows it (sysfs gids/, gid_attrs/) or verbs
// returns it (ibv_query_gid_table). Identity of a GID is (gid, type, netdev), never the index:
// the index is where the kernel happened to put it (see docs/design.md, "GID drift").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch {

enum class GidType { kIb, kRoceV1, kRoceV2, kUnknown };

// "ib", "roce_v1", "roce_v2" (the contract's label values), "unknown".
const char* GidTypeLabel(GidType type);

struct GidEntry {
  uint32_t port = 0;
  uint32_t index = 0;
  std::string gid;  // 8 groups of 4 lowercase hex digits, as sysfs prints it
  GidType type = GidType::kUnknown;
  std::string netdev;  // the GID's ndev (may be a VLAN or bond upper); empty if none

  bool operator==(const GidEntry&) const = default;
};

// The identity of a GID entry, independent of its index.
struct GidIdentity {
  std::string gid;
  GidType type = GidType::kUnknown;
  std::string netdev;
  auto operator<=>(const GidIdentity&) const = default;
};
inline GidIdentity IdentityOf(const GidEntry& e) { return {e.gid, e.type, e.netdev}; }

// The all-zero GID: an empty, reserved or pending-delete slot.
bool IsZeroGid(std::string_view gid);
// fe80::/64 link-local: the default GIDs in reserved slots 0 and 1, derived from the MAC.
bool IsLinkLocalGid(std::string_view gid);
// ::ffff:a.b.c.d (IPv4-mapped): a GID made from an IPv4 address.
bool IsIpv4MappedGid(std::string_view gid);
// "10.0.0.1" for an IPv4-mapped GID, nullopt otherwise.
std::optional<std::string> Ipv4OfGid(std::string_view gid);
// The GID an address produces: "10.0.0.1" -> "0000:...:ffff:0a00:0001"; an IPv6 address in any
// textual form -> its 8 full groups. nullopt for text that is no address.
std::optional<std::string> GidOfAddress(std::string_view address);

}  // namespace rocewatch
