#pragma once
// GID tables through libibverbs: one ibv_query_gid_table() per device per snapshot, on devices kept
// open by a VerbsDeviceSet. The kernel copies the table under its lock without taking references
// on the entries, so unlike sysfs reads this cannot hold a GID slot and make the next re-add land
// higher (see "Observer effect" in docs/design.md). This is why verbs is the default source.
//
// The buffer is sized as the sum of gid_tbl_len over the device's ports (ibv_query_port) and
// grown when the call fails with EINVAL (more valid entries than room). A device whose calls fail
// with a "gone" errno (ENODEV, EIO, ENXIO) is closed: ReadDevice reports NotFound and the device
// set re-opens it when it is listed again. A device not open yet (new since the last enumeration)
// is opened on its first read; one that cannot be opened is Unavailable (retried with backoff).
// A re-enumeration the loop asked for (VerbsDeviceSet::RequestRefresh) is made by
// RefreshDevicesIfAsked, which the daemon's watched source calls before each device read.
//
// Threading: one thread. Lifetime: `devices` must outlive this.

#include <string>

#include "model/gid_table_source.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

class VerbsGidTableSource final : public GidTableSource {
 public:
  // EINVAL retries per read, each doubling the buffer.
  static constexpr int kMaxGrowRetries = 4;

  explicit VerbsGidTableSource(VerbsDeviceSet& devices) : devices_(devices) {}

  const char* name() const override { return "verbs"; }
  StatusOr<GidTableRead> ReadDevice(const std::string& device) override;
  void RefreshDevicesIfAsked(const std::function<bool()>& still_wanted) override {
    devices_.RefreshIfRequested(still_wanted);
  }

  VerbsDeviceSet& devices() { return devices_; }

 private:
  // Sum of gid_tbl_len over the ports of `device` (at least 1).
  StatusOr<size_t> TableCapacity(VerbsDevice& device);

  VerbsDeviceSet& devices_;
};

// True for the errno values that mean the device is gone (hot-unplug, driver reset).
bool IsVerbsDeviceGone(const Status& status);

// Converts one verbs entry to the model's GidEntry: the GID in sysfs text form, the type label,
// the netdev name (`netdev` already resolved from ndev_ifindex; empty for none).
GidEntry ToGidEntry(const VerbsGidEntry& entry, std::string netdev);

}  // namespace rocewatch
