#include "support/simulated_gid_table.h"

#include <gtest/gtest.h>

namespace rocewatch {

SimulatedGidTable::SimulatedGidTable(uint32_t port, std::string netdev, const std::string& mac,
                                     uint32_t table_len)
    : port_(port), netdev_(std::move(netdev)), mac_(mac), slots_(table_len) {
  std::string gid = LinkLocalGidOfMac(mac);
  if (table_len < 2) return;
  slots_[0] = {SlotState::kValid, {port_, 0, gid, GidType::kRoceV1, netdev_}, 0};
  slots_[1] = {SlotState::kValid, {port_, 1, gid, GidType::kRoceV2, netdev_}, 0};
}

std::optional<uint32_t> SimulatedGidTable::LowestFreeSlot() const {
  for (uint32_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].state == SlotState::kFree) return i;
  return std::nullopt;
}

std::vector<uint32_t> SimulatedGidTable::AddAddress(const std::string& address,
                                                    const std::string& netdev) {
  std::optional<std::string> gid = GidOfAddress(address);
  if (!gid) {
    ADD_FAILURE() << "not an address: " << address;
    return {};
  }
  const std::string& dev = netdev.empty() ? netdev_ : netdev;
  std::vector<uint32_t> indices;
  for (GidType type : {GidType::kRoceV1, GidType::kRoceV2}) {
    if (std::optional<uint32_t> existing = IndexOf(address, type, dev)) {
      indices.push_back(*existing);
      continue;
    }
    std::optional<uint32_t> slot = LowestFreeSlot();
    if (!slot) {
      ADD_FAILURE() << "GID table full";
      return indices;
    }
    slots_[*slot] = {SlotState::kValid, {port_, *slot, *gid, type, dev}, 0};
    indices.push_back(*slot);
  }
  return indices;
}

void SimulatedGidTable::RemoveAddress(const std::string& address, const std::string& netdev) {
  std::optional<std::string> gid = GidOfAddress(address);
  const std::string& dev = netdev.empty() ? netdev_ : netdev;
  for (Slot& slot : slots_) {
    if (slot.state != SlotState::kValid || slot.entry.gid != gid || slot.entry.netdev != dev)
      continue;
    if (slot.references > 0) {
      slot.state = SlotState::kPendingDelete;
    } else {
      Free(slot);
    }
  }
}

void SimulatedGidTable::TakeReference(uint32_t index) {
  ASSERT_LT(index, slots_.size());
  ASSERT_EQ(slots_[index].state, SlotState::kValid) << "a QP can only use a valid entry";
  ++slots_[index].references;
}

void SimulatedGidTable::ReleaseReferences(uint32_t index) {
  ASSERT_LT(index, slots_.size());
  Slot& slot = slots_[index];
  slot.references = 0;
  if (slot.state == SlotState::kPendingDelete) Free(slot);
}

void SimulatedGidTable::ReleaseAllReferences() {
  for (uint32_t i = 0; i < slots_.size(); ++i) ReleaseReferences(i);
}

std::vector<GidEntry> SimulatedGidTable::Entries() const {
  std::vector<GidEntry> out;
  for (const Slot& slot : slots_)
    if (slot.state == SlotState::kValid) out.push_back(slot.entry);
  return out;
}

std::optional<uint32_t> SimulatedGidTable::IndexOf(const std::string& address, GidType type,
                                                   const std::string& netdev) const {
  std::optional<std::string> gid = GidOfAddress(address);
  const std::string& dev = netdev.empty() ? netdev_ : netdev;
  for (const Slot& slot : slots_)
    if (slot.state == SlotState::kValid && slot.entry.gid == gid && slot.entry.type == type &&
        slot.entry.netdev == dev)
      return slot.entry.index;
  return std::nullopt;
}

FixturePort SimulatedGidTable::ToFixturePort(const std::string& state) const {
  FixturePort port;
  port.number = port_;
  port.state = state;
  port.phys_state = state == "ACTIVE" ? "LinkUp" : "Disabled";
  port.gid_table_len = static_cast<uint32_t>(slots_.size());
  port.netdevs = {netdev_};
  port.mac = mac_;
  for (const GidEntry& e : Entries()) {
    port.gids.push_back(
        {e.index, e.gid, e.type == GidType::kRoceV2 ? "RoCE v2" : "IB/RoCE v1", e.netdev});
  }
  return port;
}

}  // namespace rocewatch
