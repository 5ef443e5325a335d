#pragma once
// The production SnapshotSource: the sysfs inventory (ports, netdevs, counters) with GID tables
// from a GidTableSource (verbs or sysfs), read by a SysfsPoller and stamped with the clock.
//
// What each snapshot reads (SysfsCadence):
//   - every snapshot: the byte counters (counters/port_xmit_data, port_rcv_data), all the 1 s
//     detectors need (the traffic detector's rates);
//   - every `slow` and on every snapshot that answers an event: the port attributes (state,
//     phys_state, rate) and every other counters/ and hw_counters/ file (error and congestion
//     counters: the traffic detector quotes them over a 30 s window; on mlx5 each counters/ read
//     is a firmware command, docs/benchmarks.md);
//   - every `relist` and on every snapshot that answers an event: the directory listings
//     (devices, ports, counter names, GID slots), so a device that appears is seen at the next
//     event (its netdev's link event) or within `relist`.
// A zero duration means every snapshot.
//
// GID tables through sysfs are expensive and not innocent: 255 files per port, and every read takes
// a reference on the kernel's GID entry (docs/design.md, "Observer effect"). GID entries change
// only after address, link and device events, which netlink and verbs announce. So, through sysfs,
// GID tables are read
//   - on every snapshot that answers an event (ExpectChange), and on every poll for `hot_window`
//     after it (the kernel updates GIDs on a workqueue shortly after the address event);
//   - at least every `backstop` otherwise (events that were missed: netlink down, overruns);
//   - whenever a device or port appears that has no known table;
// and the last tables read are carried forward in between. The reads of the event and of the hot
// window after it cover every slot (GidTableSource::ReadWholeTablesNext); a backstop read covers
// the used part of each table only (every slot up to the highest one used, and a margin above
// it: new entries take the lowest free slot), except that at least every `whole_table` a GID
// read covers every slot. Through verbs (a copy under the kernel's lock, no references taken)
// they are read whole on every snapshot.

#include "core/clock.h"
#include "daemon/defaults.h"
#include "daemon/snapshot_source.h"
#include "model/gid_table_source.h"
#include "sysfs/sysfs_poller.h"

namespace rocewatch {

struct GidReadPolicy {
  Duration backstop = defaults::kGidBackstop;
  Duration hot_window = defaults::kGidHotWindow;
  Duration whole_table = defaults::kGidWholeTableInterval;
};

struct SysfsCadence {
  Duration slow = defaults::kSlowCounterInterval;
  Duration relist = defaults::kListingBackstop;
};

// Everything on every snapshot: what `rocewatch diagnose` and tests that rewrite trees want.
inline constexpr SysfsCadence kReadEverythingEverySnapshot{Duration::zero(), Duration::zero()};

class InventorySnapshotSource final : public SnapshotSource {
 public:
  // REQUIRES: the poller was built with `gids` as its GidTableSource; poller, gids and clock
  // outlive this object.
  InventorySnapshotSource(SysfsPoller& poller, GidTableSource& gids, const Clock& clock,
                          GidReadPolicy policy = {}, SysfsCadence cadence = {})
      : poller_(poller), gids_(gids), clock_(clock), policy_(policy), cadence_(cadence) {}

  StatusOr<NodeSnapshot> Take() override;
  Status TakeInto(NodeSnapshot& snapshot) override;
  void ExpectChange() override { expect_change_ = true; }
  const char* gid_source_name() const override { return gids_.name(); }

  // How many snapshots read the GID tables, and how many carried them forward (benchmarks, tests).
  uint64_t gid_reads() const { return gid_reads_; }
  uint64_t gid_carries() const { return gid_carries_; }
  // How many GID reads were asked to cover every slot (after the first).
  uint64_t whole_table_requests() const { return whole_table_requests_; }

 private:
  bool MustReadGids(MonoTime now) const;

  SysfsPoller& poller_;
  GidTableSource& gids_;
  const Clock& clock_;
  const GidReadPolicy policy_;
  const SysfsCadence cadence_;
  bool expect_change_ = false;
  bool have_tables_ = false;
  MonoTime hot_until_{};
  MonoTime last_gid_read_{};
  MonoTime last_whole_table_read_{};
  MonoTime last_slow_read_{};
  MonoTime last_listing_{};
  uint64_t gid_reads_ = 0;
  uint64_t gid_carries_ = 0;
  uint64_t whole_table_requests_ = 0;
};

}  // namespace rocewatch
