#include "sysfs/sysfs_inventory.h"

#include "sysfs/sysfs_poller.h"

namespace rocewatch {

SysfsInventory::SysfsInventory(const FileSystem& fs, std::string sysfs_root)
    : fs_(fs), sysfs_root_(std::move(sysfs_root)) {}

StatusOr<NodeSnapshot> SysfsInventory::Read(GidTableSource* gid_source, bool read_counters) const {
  // One complete pass: a poller of its own that lists everything and keeps nothing open.
  SysfsPoller poller(fs_, sysfs_root_, gid_source, /*max_open=*/0, read_counters);
  return poller.Poll(PollScope{.list = true, .everything = true, .gids = true});
}

}  // namespace rocewatch
