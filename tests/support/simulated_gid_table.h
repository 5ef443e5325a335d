#pragma once
// A simulated kernel GID table of one RoCE port (drivers/infiniband/core/cache.c,
// roce_gid_mgmt.c):
// - slots 0 and 1 are reserved for the default GIDs (fe80:: + EUI-64 of the MAC; v1 then v2);
// - an address adds one RoCE v1 and one RoCE v2 entry, each at the lowest free slot;
// - removing an address deletes its entries; an entry with references (a live QP uses it) becomes
//   pending delete: the slot stays occupied, reads as the zero GID and its attributes fail to
//   read, until the last reference is released;
// - carrier changes alone do nothing.
// It produces the valid entries (what verbs returns) and, through ToFixturePort(), the port as the
// sysfs fixture builder writes it (support/sysfs_fixture.h: pending-delete slots read as the zero
// GID with unreadable attributes, like empty ones), so the same scenarios run through the real
// sysfs reader.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/gid.h"
#include "support/sysfs_fixture.h"

namespace rocewatch {

class SimulatedGidTable {
 public:
  enum class SlotState { kFree, kValid, kPendingDelete };
  struct Slot {
    SlotState state = SlotState::kFree;
    GidEntry entry;           // meaningful while valid or pending delete
    uint32_t references = 0;  // live QPs holding the entry
  };

  // A port whose netdev is `netdev` with MAC `mac` ("02:00:00:00:00:01"): the default GIDs are
  // in place.
  SimulatedGidTable(uint32_t port, std::string netdev, const std::string& mac,
                    uint32_t table_len = 255);

  // Adds the v1 and v2 entries of `address` (IPv4 or IPv6 text, an optional /prefix is ignored)
  // for `netdev` (default: the port's netdev, e.g. a VLAN upper otherwise). Returns their indices
  // (v1, v2); an entry that already exists is not added again.
  std::vector<uint32_t> AddAddress(const std::string& address, const std::string& netdev = "");
  // Deletes the entries of `address` on `netdev`: referenced ones become pending delete.
  void RemoveAddress(const std::string& address, const std::string& netdev = "");

  // A QP takes a reference on the entry at `index`. REQUIRES: the slot is valid.
  void TakeReference(uint32_t index);
  // Every reference at `index` goes (the QPs were destroyed); a pending-delete slot is freed.
  void ReleaseReferences(uint32_t index);
  void ReleaseAllReferences();

  // The valid entries, ascending index (what ibv_query_gid_table returns for this port).
  std::vector<GidEntry> Entries() const;
  const std::vector<Slot>& slots() const { return slots_; }
  uint32_t port() const { return port_; }
  const std::string& netdev() const { return netdev_; }
  // The index of the valid entry for `address` with `type` on `netdev` (default: the port's).
  std::optional<uint32_t> IndexOf(const std::string& address, GidType type,
                                  const std::string& netdev = "") const;

  // The port for WriteSysfsFixture: the table's valid entries ("IB/RoCE v1" / "RoCE v2"), its
  // length, the netdev and MAC; state ACTIVE unless `state` says otherwise.
  FixturePort ToFixturePort(const std::string& state = "ACTIVE") const;

 private:
  std::optional<uint32_t> LowestFreeSlot() const;
  void Free(Slot& slot) { slot = Slot{}; }

  uint32_t port_;
  std::string netdev_;
  std::string mac_;
  std::vector<Slot> slots_;
};

}  // namespace rocewatch
