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

Status SysfsPoller::List(NodeSnapshot& snapshot) {
  uint64_t& errors = snapshot.read_errors["sysfs"];
  // GID tables already read survive a listing: they change with address events, not with it. So
  // do the descriptors of attributes still listed (one whose file is gone fails and is reopened).
  std::map<std::pair<std::string, uint32_t>, Port> known_gids;  // gids and unreadable slots
  // So do a port's link layer and rate: kept when their next read fails.
  std::map<std::pair<std::string, uint32_t>, std::pair<std::string, std::string>>
      known_link_layer_rate;
  std::map<std::string, KeptAttribute> open;
  auto keep = [&open](KeptAttribute& attribute) {
    if (attribute.is_open()) open.emplace(attribute.path(), std::move(attribute));
  };
  for (DeviceLayout& device : devices_) {
    for (PortLayout& port : device.ports) {
      known_link_layer_rate[{device.name, port.last.number}] = {port.last.link_layer,
                                                                port.last.rate};
      if (port.has_gids) known_gids[{device.name, port.last.number}] = std::move(port.last);
      for (KeptAttribute* attribute : {&port.state, &port.phys_state, &port.link_layer, &port.rate})
        keep(*attribute);
      for (Counter& counter : port.counters) keep(counter.file);
      for (Counter& counter : port.hw_counters) keep(counter.file);
    }
  }
  auto attribute = [&open](std::string path) {
    auto kept = open.find(path);
    return kept != open.end() ? std::move(kept->second) : KeptAttribute(std::move(path));
  };
  devices_.clear();
  has_layout_ = false;
  if (gids_ != nullptr) gids_->ForgetLayout();

  ++listings_;
  auto root = fs_.ListDir(sysfs_root_);
  if (!root.ok()) return root.status();
  const std::string class_dir = JoinPath(sysfs_root_, "class/infiniband");
  ++listings_;
  auto device_names = fs_.ListDir(class_dir);  // naturally sorted (FileSystem::ListDir)
  if (!device_names.ok()) {
    if (device_names.status().code() != StatusCode::kNotFound) return device_names.status();
    device_names = std::vector<std::string>();  // a kernel without RDMA
  }

  for (const std::string& dev_name : *device_names) {
    DeviceLayout device;
    device.name = dev_name;
    device.dir = JoinPath(class_dir, dev_name);
    ++listings_;
    auto port_names = fs_.ListDir(JoinPath(device.dir, "ports"));
    if (!port_names.ok()) {
      if (port_names.status().code() != StatusCode::kNotFound) {
        ++errors;
        NoteFailure("sysfs", JoinPath(device.dir, "ports"), port_names.status().sys_errno());
      }
      continue;  // gone, or not a device we can read
    }
    device.last.name = dev_name;
    device.last.unreadable_attributes.clear();
    auto read_text = [&](const char* name) {
      const std::string path = JoinPath(device.dir, name);
      auto content = fs_.ReadFile(path);
      if (content.ok()) return ParsePlainText(*content);
      ++errors;
      NoteFailure("sysfs", path, content.status().sys_errno());
      device.last.unreadable_attributes.push_back(name);  // read in sorted order
      return std::string();
    };
    device.last.fw_ver = read_text("fw_ver");
    device.last.hca_type = read_text("hca_type");
    device.last.node_guid = read_text("node_guid");

    std::vector<uint32_t> numbers;
    for (const std::string& name : *port_names)
      if (auto number = ParseEntryNumber(name)) numbers.push_back(*number);
    std::sort(numbers.begin(), numbers.end());

    // The device's netdevs by port (device/net/<if>, dev_port when there are several ports).
    std::map<uint32_t, std::set<std::string>> netdevs;
    if (!numbers.empty()) {
      const std::string net_dir = JoinPath(device.dir, "device/net");
      for (const std::string& entry : ListOrEmpty(net_dir, /*absent_ok=*/true, errors)) {
        auto name = ParseNetdevName(entry);
        if (!name.ok()) continue;
        uint32_t port = numbers.front();
        if (numbers.size() > 1) {
          const std::string dev_port_path = JoinPath(net_dir, entry + "/dev_port");
          auto dev_port = fs_.ReadFile(dev_port_path);
          if (!dev_port.ok()) {
            ++errors;
            NoteFailure("sysfs", dev_port_path, dev_port.status().sys_errno());
            continue;
          }
          auto value = ParseCounterValue(*dev_port);
          if (!value.ok() || *value >= UINT32_MAX) continue;
          port = static_cast<uint32_t>(*value) + 1;
        }
        netdevs[port].insert(*name);
      }
    }

    for (uint32_t number : numbers) {
      PortLayout port;
      port.dir = JoinPath(device.dir, "ports/" + std::to_string(number));
      port.last.number = number;
      port.state = attribute(JoinPath(port.dir, "state"));
      port.phys_state = attribute(JoinPath(port.dir, "phys_state"));
      port.link_layer = attribute(JoinPath(port.dir, "link_layer"));
      port.rate = attribute(JoinPath(port.dir, "rate"));
      port.last.gid_table_len = static_cast<uint32_t>(
          ListOrEmpty(JoinPath(port.dir, "gids"), /*absent_ok=*/false, errors).size());
      const std::string counters_dir = JoinPath(port.dir, "counters");
      const std::string hw_dir = JoinPath(port.dir, "hw_counters");
      std::vector<std::string> counter_names, hw_names;
      if (read_counters_) {
        counter_names = ListOrEmpty(counters_dir, /*absent_ok=*/true, errors);
        hw_names = ListOrEmpty(hw_dir, /*absent_ok=*/true, errors);
      }
      for (std::string& name : counter_names) {
        if (name == "port_xmit_data") port.transmit_data = static_cast<int>(port.counters.size());
        if (name == "port_rcv_data") port.receive_data = static_cast<int>(port.counters.size());
        KeptAttribute file = attribute(JoinPath(counters_dir, name));
        port.counters.push_back({std::move(name), std::move(file)});
      }
      for (std::string& name : hw_names) {
        if (IsHwCounterSetting(name)) continue;
        KeptAttribute file = attribute(JoinPath(hw_dir, name));
        port.hw_counters.push_back({std::move(name), std::move(file)});
      }
      const auto& listed = netdevs[number];
      port.listed_netdevs.assign(listed.begin(), listed.end());
      port.last.netdevs = port.listed_netdevs;
      port.last.own_netdevs = port.listed_netdevs;
      if (auto kept = known_link_layer_rate.find({dev_name, number});
          kept != known_link_layer_rate.end())
        std::tie(port.last.link_layer, port.last.rate) = std::move(kept->second);
      auto known = known_gids.find({dev_name, number});
      if (known != known_gids.end()) {
        port.last.gids = std::move(known->second.gids);
        port.last.unreadable_gid_slots = std::move(known->second.unreadable_gid_slots);
        port.last.gid_table_unlistable = known->second.gid_table_unlistable;
        port.has_gids = true;
        for (const GidEntry& gid : port.last.gids)
          if (!gid.netdev.empty()) port.last.netdevs.push_back(gid.netdev);
        std::sort(port.last.netdevs.begin(), port.last.netdevs.end());
        port.last.netdevs.erase(std::unique(port.last.netdevs.begin(), port.last.netdevs.end()),
                                port.last.netdevs.end());
      }
      device.ports.push_back(std::move(port));
    }
    devices_.push_back(std::move(device));
  }
  has_layout_ = true;
  return Status::Ok();
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
