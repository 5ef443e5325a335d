#pragma once
// The production SnapshotSource: the sysfs inventory (ports, netdevs, counters) with GID tables
// from a GidTableSource (verbs or sysfs), stamped with the clock.

#include "app/snapshot_source.h"
#include "core/clock.h"
#include "gid/gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {

class InventorySnapshotSource final : public SnapshotSource {
 public:
  // REQUIRES: all three outlive this object.
  InventorySnapshotSource(const SysfsInventory& inventory, GidTableSource& gids, const Clock& clock)
      : inventory_(inventory), gids_(gids), clock_(clock) {}

  StatusOr<NodeSnapshot> Take() override {
    StatusOr<NodeSnapshot> snapshot = inventory_.Read(&gids_, /*read_counters=*/true);
    if (snapshot.ok()) snapshot->taken_at = clock_.Now();
    return snapshot;
  }
  const char* gid_source_name() const override { return gids_.name(); }

 private:
  const SysfsInventory& inventory_;
  GidTableSource& gids_;
  const Clock& clock_;
};

}  // namespace rocewatch
