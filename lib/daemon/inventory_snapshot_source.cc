#include "daemon/inventory_snapshot_source.h"

#include <cstring>

namespace rocewatch {

bool InventorySnapshotSource::MustReadGids(MonoTime now) const {
  if (std::strcmp(gids_.name(), "sysfs") != 0) return true;  // verbs: cheap and reference-free
  if (!have_tables_ || expect_change_ || now < hot_until_) return true;
  return now - last_gid_read_ >= policy_.backstop;
}

StatusOr<NodeSnapshot> InventorySnapshotSource::Take() {
  NodeSnapshot snapshot;
  Status taken = TakeInto(snapshot);
  if (!taken.ok()) return taken;
  return snapshot;
}

Status InventorySnapshotSource::TakeInto(NodeSnapshot& snapshot) {
  const MonoTime now = clock_.Now();
  if (expect_change_) hot_until_ = now + policy_.hot_window;
  PollScope scope;
  scope.gids = MustReadGids(now);
  scope.list = !have_tables_ || expect_change_ || now - last_listing_ >= cadence_.relist;
  scope.everything = scope.list || now - last_slow_read_ >= cadence_.slow;
  expect_change_ = false;
  // Whole tables (every slot) when something happened (the event's read and the hot window
  // after it: the kernel is changing tables, entries may come and go between two reads) and at
  // least every whole_table; the quiet backstop reads the used part only. The first read of a
  // table is whole anyway (nothing is known of it).
  if (!have_tables_) last_whole_table_read_ = now;
  const bool whole_due = now - last_whole_table_read_ >= policy_.whole_table;
  if (scope.gids && have_tables_ && (now < hot_until_ || whole_due)) {
    gids_.ReadWholeTablesNext();
    last_whole_table_read_ = now;
    ++whole_table_requests_;
  }

  const uint64_t device_reads = poller_.gid_device_reads();
  Status polled = poller_.PollInto(scope, snapshot);
  if (!polled.ok()) return polled;
  if (scope.list) last_listing_ = now;
  if (scope.everything) last_slow_read_ = now;
  if (scope.gids) {
    have_tables_ = true;
    last_gid_read_ = now;
    ++gid_reads_;
  } else if (poller_.gid_device_reads() == device_reads) {
    ++gid_carries_;
  }
  snapshot.taken_at = now;
  return Status::Ok();
}

}  // namespace rocewatch
