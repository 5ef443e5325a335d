#include "verbs/verbs_gid_table_source.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cerrno>
#include <map>

namespace rocewatch {

bool IsVerbsDeviceGone(const Status& status) {
  int e = status.sys_errno();
  return e == ENODEV || e == EIO || e == ENXIO;
}

GidEntry ToGidEntry(const VerbsGidEntry& entry, std::string netdev) {
  GidEntry out;
  out.port = entry.port;
  out.index = entry.index;
  char text[INET6_ADDRSTRLEN] = {};
  // inet_ntop cannot fail for AF_INET6 with a large enough buffer; GidOfAddress then prints the
  // 8 full groups sysfs uses.
  inet_ntop(AF_INET6, entry.gid.data(), text, sizeof(text));
  out.gid = GidOfAddress(text).value_or(text);
  switch (entry.type) {
    case 0:
      out.type = GidType::kIb;
      break;
    case 1:
      out.type = GidType::kRoceV1;
      break;
    case 2:
      out.type = GidType::kRoceV2;
      break;
    default:
      out.type = GidType::kUnknown;
      break;
  }
  out.netdev = std::move(netdev);
  return out;
}

StatusOr<size_t> VerbsGidTableSource::TableCapacity(VerbsDevice& device) {
  StatusOr<uint32_t> ports = device.PortCount();
  if (!ports.ok()) return ports.status();
  size_t total = 0;
  for (uint32_t port = 1; port <= *ports; ++port) {
    StatusOr<VerbsPortAttr> attr = device.QueryPort(port);
    if (!attr.ok()) return attr.status();
    total += attr->gid_table_len;
  }
  return std::max<size_t>(total, 1);
}

StatusOr<GidTableRead> VerbsGidTableSource::ReadDevice(const std::string& device_name) {
  // A device sysfs lists but verbs has not opened (yet) is opened here; if it cannot be, the
  // error is not NotFound: the device exists, only its GIDs are unreadable this time.
  StatusOr<VerbsDeviceSet::Entry*> found = devices_.FindOrOpen(device_name);
  if (!found.ok()) {
    return Status::Unavailable("GIDs of " + device_name +
                               " unreadable through verbs: " + found.status().ToString());
  }
  VerbsDeviceSet::Entry* entry = *found;
  auto lost = [&](const Status& status) -> Status {
    if (!IsVerbsDeviceGone(status)) return status;
    devices_.Close(device_name);
    return Status::NotFound(device_name + " is gone: " + status.ToString());
  };

  if (entry->gid_capacity == 0) {
    StatusOr<size_t> capacity = TableCapacity(*entry->device);
    if (!capacity.ok()) return lost(capacity.status());
    entry->gid_capacity = *capacity;
  }
  StatusOr<std::vector<VerbsGidEntry>> raw = entry->device->QueryGidTable(entry->gid_capacity);
  for (int retry = 0; retry < kMaxGrowRetries && !raw.ok() && raw.status().sys_errno() == EINVAL;
       ++retry) {
    // More valid entries than room: the port table lengths changed, or a driver reports fewer
    // than it fills. Re-query them and grow at least twofold.
    StatusOr<size_t> capacity = TableCapacity(*entry->device);
    if (!capacity.ok()) return lost(capacity.status());
    entry->gid_capacity = std::max(*capacity, entry->gid_capacity * 2);
    raw = entry->device->QueryGidTable(entry->gid_capacity);
  }
  if (!raw.ok()) return lost(raw.status());

  GidTableRead read;
  std::map<uint32_t, std::string> names;  // ifindex -> name, resolved once per read
  for (const VerbsGidEntry& e : *raw) {
    std::string netdev;
    if (e.ndev_ifindex != 0) {
      auto it = names.find(e.ndev_ifindex);
      if (it == names.end()) {
        StatusOr<std::string> name = devices_.api().NetdevName(e.ndev_ifindex);
        if (!name.ok()) {
          // Gone between the query and now (a VLAN removed): keep the entry, named by its index
          // so that its identity stays stable until the next snapshot.
          ++read.failed_reads;
        }
        it =
            names.emplace(e.ndev_ifindex, name.value_or("ifindex" + std::to_string(e.ndev_ifindex)))
                .first;
      }
      netdev = it->second;
    }
    read.entries.push_back(ToGidEntry(e, std::move(netdev)));
  }
  std::sort(read.entries.begin(), read.entries.end(), [](const GidEntry& a, const GidEntry& b) {
    return a.port != b.port ? a.port < b.port : a.index < b.index;
  });
  return read;
}

}  // namespace rocewatch
