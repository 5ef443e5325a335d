#include "app/inventory_snapshot_source.h"

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
