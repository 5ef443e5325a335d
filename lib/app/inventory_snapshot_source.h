#pragma once
// The production SnapshotSource: the sysfs inventory (ports, netdevs, counters) with GID tables
// from a GidTableSource (verbs or sysfs), stamped with the clock.
//
// GID tables through sysfs are expensive and not innocent: 255 files per port, and every read takes
// a reference on the kernel's GID entry (docs/design.md, "Observer effect"). GID entries change
// only after address, link and device events, which netlink and verbs announce. So, through sysfs,
// GID tables are read
//   - on every snapshot that answers an event (ExpectChange), and on every poll for `hot_window`
//     after it (the kernel updates GIDs on a workqueue shortly after the address event);
//   - at least every `backstop` otherwise (events that were missed: netlink down, overruns);
//   - whenever a device or port appears that has no known table;
// and the last tables read are carried forward in between. Through verbs (a copy under the kernel's
// lock, no references taken) they are read on every snapshot.

#include <map>
#include <utility>

#include "app/snapshot_source.h"
#include "core/clock.h"
#include "gid/gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {

struct GidReadPolicy {
  Duration backstop = std::chrono::seconds(30);
  Duration hot_window = std::chrono::seconds(10);
};

class InventorySnapshotSource final : public SnapshotSource {
 public:
  // REQUIRES: inventory, gids and clock outlive this object.
  InventorySnapshotSource(const SysfsInventory& inventory, GidTableSource& gids, const Clock& clock,
                          GidReadPolicy policy = {})
      : inventory_(inventory), gids_(gids), clock_(clock), policy_(policy) {}

  StatusOr<NodeSnapshot> Take() override;
  void ExpectChange() override { expect_change_ = true; }
  const char* gid_source_name() const override { return gids_.name(); }

  // How many snapshots read the GID tables, and how many carried them forward (benchmarks, tests).
  uint64_t gid_reads() const { return gid_reads_; }
  uint64_t gid_carries() const { return gid_carries_; }

 private:
  bool MustReadGids(MonoTime now) const;
  bool HasPortWithoutTable(const NodeSnapshot& snapshot) const;

  const SysfsInventory& inventory_;
  GidTableSource& gids_;
  const Clock& clock_;
  const GidReadPolicy policy_;
  bool expect_change_ = false;
  bool have_tables_ = false;
  MonoTime hot_until_{};
  MonoTime last_gid_read_{};
  std::map<std::pair<std::string, uint32_t>, std::vector<GidEntry>> tables_;  // (device, port)
  uint64_t gid_reads_ = 0;
  uint64_t gid_carries_ = 0;
};

}  // namespace rocewatch
