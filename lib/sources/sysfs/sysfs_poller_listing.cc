// The sysfs poller's listing (sysfs/sysfs_poller.h): the devices, ports, netdevs and attribute
// files under class/infiniband, laid out once and again only when something appears or goes,
// keeping what the layout before it had read.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "sysfs/sysfs_parsers.h"
#include "sysfs/sysfs_poller.h"

namespace rocewatch {

KeptAttribute SysfsPoller::CarriedOver::Attribute(std::string path) {
  auto kept = open.find(path);
  return kept != open.end() ? std::move(kept->second) : KeptAttribute(std::move(path));
}

SysfsPoller::CarriedOver SysfsPoller::TakeLayout() {
  CarriedOver carried;
  auto keep = [&carried](KeptAttribute& attribute) {
    if (attribute.is_open()) carried.open.emplace(attribute.path(), std::move(attribute));
  };
  for (DeviceLayout& device : devices_) {
    for (PortLayout& port : device.ports) {
      carried.link_layer_rate[{device.name, port.last.number}] = {port.last.link_layer,
                                                                  port.last.rate};
      if (port.has_gids) carried.gids[{device.name, port.last.number}] = std::move(port.last);
      for (KeptAttribute* attribute : {&port.state, &port.phys_state, &port.link_layer, &port.rate})
        keep(*attribute);
      for (Counter& counter : port.counters) keep(counter.file);
      for (Counter& counter : port.hw_counters) keep(counter.file);
    }
  }
  devices_.clear();
  has_layout_ = false;
  if (gids_ != nullptr) gids_->ForgetLayout();
  return carried;
}

Status SysfsPoller::List(NodeSnapshot& snapshot) {
  uint64_t& errors = snapshot.read_errors["sysfs"];
  CarriedOver carried = TakeLayout();

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

  bool vanished = false;
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
    // A device attribute the driver does not provide (soft-RoCE has no hca_type) is absent:
    // empty, not unreadable. Any other failure is a failed read.
    auto read_text = [&](const char* name) {
      const std::string path = JoinPath(device.dir, name);
      auto content = fs_.ReadFile(path);
      if (content.ok()) return ParsePlainText(*content);
      if (content.status().code() == StatusCode::kNotFound) return std::string();
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
    std::map<uint32_t, std::set<std::string>> netdevs = NetdevsByPort(device.dir, numbers, errors);
    for (uint32_t number : numbers)
      device.ports.push_back(LayOutPort(device, number, netdevs[number], carried, errors));
    // A device removed while it was being listed reads as absent attributes and netdevs, while
    // descriptors kept from the last layout still read its old values: that would publish part
    // of it. It is left out, and the next poll lists again.
    if (!fs_.IsDirectory(device.dir)) {
      vanished = true;
      continue;
    }
    devices_.push_back(std::move(device));
  }
  has_layout_ = !vanished;
  return Status::Ok();
}

std::map<uint32_t, std::set<std::string>> SysfsPoller::NetdevsByPort(
    const std::string& device_dir, const std::vector<uint32_t>& numbers, uint64_t& errors) {
  std::map<uint32_t, std::set<std::string>> netdevs;
  if (numbers.empty()) return netdevs;
  const std::string net_dir = JoinPath(device_dir, "device/net");
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
  return netdevs;
}

SysfsPoller::PortLayout SysfsPoller::LayOutPort(const DeviceLayout& device, uint32_t number,
                                                const std::set<std::string>& netdevs,
                                                CarriedOver& carried, uint64_t& errors) {
  PortLayout port;
  port.dir = JoinPath(device.dir, "ports/" + std::to_string(number));
  port.last.number = number;
  port.state = carried.Attribute(JoinPath(port.dir, "state"));
  port.phys_state = carried.Attribute(JoinPath(port.dir, "phys_state"));
  port.link_layer = carried.Attribute(JoinPath(port.dir, "link_layer"));
  port.rate = carried.Attribute(JoinPath(port.dir, "rate"));
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
    KeptAttribute file = carried.Attribute(JoinPath(counters_dir, name));
    port.counters.push_back({std::move(name), std::move(file)});
  }
  for (std::string& name : hw_names) {
    if (IsHwCounterSetting(name)) continue;
    KeptAttribute file = carried.Attribute(JoinPath(hw_dir, name));
    port.hw_counters.push_back({std::move(name), std::move(file)});
  }
  port.listed_netdevs.assign(netdevs.begin(), netdevs.end());
  port.last.netdevs = port.listed_netdevs;
  port.last.own_netdevs = port.listed_netdevs;
  if (auto kept = carried.link_layer_rate.find({device.name, number});
      kept != carried.link_layer_rate.end())
    std::tie(port.last.link_layer, port.last.rate) = std::move(kept->second);
  auto known = carried.gids.find({device.name, number});
  if (known != carried.gids.end()) {
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
  return port;
}

}  // namespace rocewatch
