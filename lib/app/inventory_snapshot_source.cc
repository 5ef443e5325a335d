#include "app/inventory_snapshot_source.h"

#include <cstring>

namespace rocewatch {

bool InventorySnapshotSource::HasPortWithoutTable(const NodeSnapshot& snapshot) const {
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports)
      if (tables_.count({device.name, port.number}) == 0) return true;
  return false;
}

bool InventorySnapshotSource::MustReadGids(MonoTime now) const {
  if (std::strcmp(gids_.name(), "sysfs") != 0) return true;  // verbs: cheap and reference-free
  if (!have_tables_ || expect_change_ || now < hot_until_) return true;
  return now - last_gid_read_ >= policy_.backstop;
}

StatusOr<NodeSnapshot> InventorySnapshotSource::Take() {
  const MonoTime now = clock_.Now();
  if (expect_change_) hot_until_ = now + policy_.hot_window;
  const bool read_gids = MustReadGids(now);
  expect_change_ = false;

  StatusOr<NodeSnapshot> snapshot = inventory_.Read(read_gids ? &gids_ : nullptr, true);
  if (!snapshot.ok()) return snapshot;
  bool carry = !read_gids;
  if (carry && HasPortWithoutTable(*snapshot)) {  // a new device or port: read for real
    snapshot = inventory_.Read(&gids_, true);
    if (!snapshot.ok()) return snapshot;
    carry = false;
  }
  if (carry) {
    for (Device& device : snapshot->devices)
      for (Port& port : device.ports) port.gids = tables_.at({device.name, port.number});
    ++gid_carries_;
  } else {
    tables_.clear();
    for (const Device& device : snapshot->devices)
      for (const Port& port : device.ports) tables_[{device.name, port.number}] = port.gids;
    have_tables_ = true;
    last_gid_read_ = now;
    ++gid_reads_;
  }
  snapshot->taken_at = now;
  return snapshot;
}

}  // namespace rocewatch
