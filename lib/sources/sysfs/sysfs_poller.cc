#include "sysfs/sysfs_poller.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

constexpr uint64_t kOctetsPerDataUnit = 4;  // port_*_data count 4-octet units

std::optional<uint64_t> Find(const std::map<std::string, uint64_t>& values, const char* name) {
  auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

// `to` = `from`, the values alone when both have the same names (the usual case, poll after poll:
// no node or name is allocated), else a plain copy.
void CopyCounters(const std::map<std::string, uint64_t>& from,
                  std::map<std::string, uint64_t>& to) {
  const bool same_names =
      from.size() == to.size() &&
      std::equal(from.begin(), from.end(), to.begin(),
                 [](const auto& a, const auto& b) { return a.first == b.first; });
  if (!same_names) {
    to = from;
    return;
  }
  auto out = to.begin();
  for (const auto& entry : from) (out++)->second = entry.second;
}

// `to` = `from`, reusing what `to` holds. Every member is assigned (the poller's tests compare the
// result with a fresh copy through the defaulted operator==); the ports are copied by the caller.
void CopyDevice(const Device& from, Device& to) {
  to.name = from.name;
  to.fw_ver = from.fw_ver;
  to.hca_type = from.hca_type;
  to.node_guid = from.node_guid;
  to.unreadable_attributes = from.unreadable_attributes;
}

void CopyPort(const Port& from, Port& to) {
  to.number = from.number;
  to.state = from.state;
  to.phys_state = from.phys_state;
  to.link_layer = from.link_layer;
  to.rate = from.rate;
  to.gid_table_len = from.gid_table_len;
  to.netdevs = from.netdevs;
  to.own_netdevs = from.own_netdevs;
  to.gids = from.gids;
  to.unreadable_gid_slots = from.unreadable_gid_slots;
  to.gid_table_unlistable = from.gid_table_unlistable;
  to.unreadable_attributes = from.unreadable_attributes;
  to.counters.transmit_bytes = from.counters.transmit_bytes;
  to.counters.receive_bytes = from.counters.receive_bytes;
  to.counters.transmit_packets = from.counters.transmit_packets;
  to.counters.receive_packets = from.counters.receive_packets;
  CopyCounters(from.counters.counters, to.counters.counters);
  CopyCounters(from.counters.hw_counters, to.counters.hw_counters);
  to.counters.unreadable = from.counters.unreadable;
}

}  // namespace

SysfsPoller::SysfsPoller(const FileSystem& fs, std::string sysfs_root, GidTableSource* gids,
                         size_t max_open, bool read_counters)
    : fs_(fs),
      sysfs_root_(std::move(sysfs_root)),
      gids_(gids),
      read_counters_(read_counters),
      reader_(fs, max_open) {}

std::vector<std::string> SysfsPoller::ListOrEmpty(const std::string& path, bool absent_ok,
                                                  uint64_t& errors) {
  ++listings_;
  auto names = fs_.ListDir(path);
  if (names.ok()) return std::move(*names);
  if (!(absent_ok && names.status().code() == StatusCode::kNotFound)) {
    ++errors;
    NoteFailure("sysfs", path, names.status().sys_errno());
  }
  return {};
}

void SysfsPoller::NoteFailure(const char* source, const std::string& path, int sys_errno) {
  if (failures_.size() < kNamedReadFailures) failures_.push_back({source, path, sys_errno});
}

bool SysfsPoller::ReadAttribute(KeptAttribute& attribute, std::string* text, uint64_t& errors,
                                bool* gone) {
  Status status = reader_.Read(attribute, text);
  if (status.ok()) return true;
  ++errors;
  NoteFailure("sysfs", attribute.path(), status.sys_errno());
  if (status.code() == StatusCode::kNotFound) *gone = true;
  return false;
}

void SysfsPoller::ReadCounters(std::vector<Counter>& files, std::map<std::string, uint64_t>& values,
                               const char* prefix, std::vector<std::string>& unreadable,
                               uint64_t& errors, bool* gone) {
  const std::string_view kind(prefix);
  std::erase_if(unreadable, [&](const std::string& n) { return n.starts_with(kind); });
  for (Counter& counter : files) {
    std::optional<uint64_t> value;
    if (ReadAttribute(counter.file, &text_, errors, gone)) {
      auto parsed = ParseCounterValue(text_);
      if (parsed.ok()) value = *parsed;
    } else {
      unreadable.push_back(std::string(kind) + counter.name);
    }
    if (value) {
      values[counter.name] = *value;  // an existing entry: no allocation
    } else {
      values.erase(counter.name);
    }
  }
}

void SysfsPoller::ReadDataCounters(PortLayout& port, uint64_t& errors, bool* gone) {
  for (int index : {port.transmit_data, port.receive_data}) {
    if (index < 0) continue;
    Counter& counter = port.counters[static_cast<size_t>(index)];
    std::vector<std::string>& unreadable = port.last.counters.unreadable;
    const std::string name = "counters/" + counter.name;
    auto listed = std::lower_bound(unreadable.begin(), unreadable.end(), name);
    const bool was_unreadable = listed != unreadable.end() && *listed == name;
    std::optional<uint64_t> value;
    if (ReadAttribute(counter.file, &text_, errors, gone)) {
      if (was_unreadable) unreadable.erase(listed);
      auto parsed = ParseCounterValue(text_);
      if (parsed.ok()) value = *parsed;
    } else if (!was_unreadable) {
      unreadable.insert(listed, name);
    }
    if (value) {
      port.last.counters.counters[counter.name] = *value;
    } else {
      port.last.counters.counters.erase(counter.name);
    }
  }
}

void SysfsPoller::ReadPortAttributes(PortLayout& port, uint64_t& errors, bool* gone) {
  Port& last = port.last;
  last.unreadable_attributes.clear();  // keeps its capacity: no allocation while reads succeed
  // One attribute into `value`; on a failed read it is named unreadable and, unless the last
  // value stays (a port's link layer and rate do not change while it exists), cleared.
  auto read = [&](KeptAttribute& attribute, const char* name, std::string& value,
                  std::string (*parse)(std::string_view), bool last_stays) {
    if (ReadAttribute(attribute, &text_, errors, gone)) {
      value = parse(text_);
      return;
    }
    if (!last_stays) value.clear();
    last.unreadable_attributes.push_back(name);
  };
  // In the sorted order of the names, so that unreadable_attributes comes out sorted.
  read(port.link_layer, "link_layer", last.link_layer, ParsePlainText, true);
  read(port.phys_state, "phys_state", last.phys_state, PortStateName, false);
  read(port.rate, "rate", last.rate, ParsePlainText, true);
  read(port.state, "state", last.state, PortStateName, false);
}

bool SysfsPoller::ReadGids(DeviceLayout& device, NodeSnapshot& snapshot) {
  ++gid_device_reads_;
  uint64_t& errors = snapshot.read_errors[gids_->name()];
  auto read = gids_->ReadDevice(device.name);
  if (!read.ok() && read.status().code() == StatusCode::kNotFound) return false;  // vanished
  if (!read.ok()) {
    ++errors;
    NoteFailure(gids_->name(), JoinPath(device.dir, "ports"), read.status().sys_errno());
    // The last tables stay; a port without one has an unknown table, not an empty one.
    for (PortLayout& port : device.ports)
      if (!port.has_gids) port.last.gid_table_unlistable = true;
    return true;
  }
  errors += read->failed_reads;
  for (PortLayout& port : device.ports) {
    port.last.gids.clear();
    port.last.unreadable_gid_slots.clear();
    port.last.gid_table_unlistable = false;
    port.last.netdevs = port.listed_netdevs;
    port.has_gids = true;
  }
  for (const UnreadableGidSlot& slot : read->unreadable) {
    NoteFailure(gids_->name(), slot.path, slot.sys_errno);
    auto port = std::find_if(device.ports.begin(), device.ports.end(),
                             [&](const PortLayout& p) { return p.last.number == slot.port; });
    if (port == device.ports.end()) continue;
    if (slot.index) {
      port->last.unreadable_gid_slots.push_back(*slot.index);
    } else {
      port->last.gid_table_unlistable = true;
    }
  }
  for (GidEntry& entry : read->entries) {  // ascending (port, index)
    auto port = std::find_if(device.ports.begin(), device.ports.end(),
                             [&](const PortLayout& p) { return p.last.number == entry.port; });
    if (port == device.ports.end()) continue;
    if (!entry.netdev.empty()) port->last.netdevs.push_back(entry.netdev);
    port->last.gids.push_back(std::move(entry));
  }
  for (PortLayout& port : device.ports) {
    std::vector<std::string>& netdevs = port.last.netdevs;
    std::sort(netdevs.begin(), netdevs.end());
    netdevs.erase(std::unique(netdevs.begin(), netdevs.end()), netdevs.end());
    std::sort(port.last.gids.begin(), port.last.gids.end(),
              [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
    std::vector<uint32_t>& unreadable = port.last.unreadable_gid_slots;
    std::sort(unreadable.begin(), unreadable.end());
    unreadable.erase(std::unique(unreadable.begin(), unreadable.end()), unreadable.end());
  }
  return true;
}

StatusOr<NodeSnapshot> SysfsPoller::Poll(const PollScope& scope) {
  NodeSnapshot snapshot;
  Status polled = PollInto(scope, snapshot);
  if (!polled.ok()) return polled;
  return snapshot;
}

Status SysfsPoller::PollInto(const PollScope& scope, NodeSnapshot& snapshot) {
  snapshot.read_errors.clear();
  failures_.clear();
  uint64_t& errors = snapshot.read_errors["sysfs"];
  if (gids_ != nullptr) snapshot.read_errors[gids_->name()] += 0;
  bool everything = scope.everything;
  if (!has_layout_ || scope.list) {
    Status listed = List(snapshot);
    if (!listed.ok()) {
      snapshot.read_failures.clear();
      return listed;
    }
    everything = true;
  }

  size_t written = 0;  // devices of `snapshot` overwritten so far
  bool vanished = false;
  for (DeviceLayout& device : devices_) {
    bool gone = false;
    for (PortLayout& port : device.ports) {
      PortCounters& counters = port.last.counters;
      if (everything) {
        ReadPortAttributes(port, errors, &gone);
        ReadCounters(port.counters, counters.counters, "counters/", counters.unreadable, errors,
                     &gone);
        ReadCounters(port.hw_counters, counters.hw_counters, "hw_counters/", counters.unreadable,
                     errors, &gone);
        std::sort(counters.unreadable.begin(), counters.unreadable.end());
        counters.transmit_packets = Find(counters.counters, "port_xmit_packets");
        counters.receive_packets = Find(counters.counters, "port_rcv_packets");
      } else {
        ReadDataCounters(port, errors, &gone);
      }
      auto transmit = Find(counters.counters, "port_xmit_data");
      auto receive = Find(counters.counters, "port_rcv_data");
      counters.transmit_bytes =
          transmit ? std::optional(*transmit * kOctetsPerDataUnit) : std::nullopt;
      counters.receive_bytes =
          receive ? std::optional(*receive * kOctetsPerDataUnit) : std::nullopt;
    }
    if (gids_ != nullptr) {
      const bool unknown = std::any_of(device.ports.begin(), device.ports.end(),
                                       [](const PortLayout& p) { return !p.has_gids; });
      if ((scope.gids || unknown) && !ReadGids(device, snapshot)) gone = true;
    }
    if (gone && !fs_.IsDirectory(device.dir)) {  // vanished while being read: not partial
      vanished = true;
      continue;
    }
    if (written == snapshot.devices.size()) snapshot.devices.emplace_back();
    Device& out = snapshot.devices[written++];
    CopyDevice(device.last, out);
    out.ports.resize(device.ports.size());
    for (size_t p = 0; p < device.ports.size(); ++p) CopyPort(device.ports[p].last, out.ports[p]);
  }
  snapshot.devices.resize(written);
  snapshot.read_failures.assign(failures_.begin(), failures_.end());
  if (vanished) has_layout_ = false;  // list again next time
  return Status::Ok();
}

}  // namespace rocewatch
