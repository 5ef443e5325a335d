#include "sysfs/sysfs_inventory.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

// hw_counters/ files that are settings, not counters.
bool IsHwCounterSetting(const std::string& name) { return name == "lifespan"; }

std::optional<uint32_t> ParsePortNumber(const std::string& name) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
  if (name.empty() || ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return value;
}

std::string StateName(const std::string& text) {
  auto state = ParsePortState(text);
  return state.ok() ? state->name : ParsePlainText(text);  // unknown formats pass through
}

// One Read() pass: the file system, the error count and the helpers that update it.
class InventoryPass {
 public:
  InventoryPass(const FileSystem& fs, uint64_t* errors) : fs_(fs), errors_(errors) {}

  // The file's content, or nullopt with the failure counted.
  std::optional<std::string> Read(const std::string& path) {
    auto content = fs_.ReadFile(path);
    if (content.ok()) return std::move(*content);
    ++*errors_;
    return std::nullopt;
  }

  std::string ReadText(const std::string& path) {
    auto content = Read(path);
    return content ? ParsePlainText(*content) : std::string();
  }

  // The directory's entries; an absent directory is empty and not counted when `absent_ok`.
  std::vector<std::string> List(const std::string& path, bool absent_ok) {
    auto names = fs_.ListDir(path);
    if (names.ok()) return std::move(*names);
    if (!(absent_ok && names.status().code() == StatusCode::kNotFound)) ++*errors_;
    return {};
  }

  // Every numeric file of `dir`, except those `skip` rejects.
  std::map<std::string, uint64_t> ReadCounterDir(const std::string& dir,
                                                 bool (*skip)(const std::string&)) {
    std::map<std::string, uint64_t> values;
    for (const std::string& name : List(dir, /*absent_ok=*/true)) {
      if (skip != nullptr && skip(name)) continue;
      auto content = Read(JoinPath(dir, name));
      if (!content) continue;
      auto value = ParseCounterValue(*content);
      if (value.ok()) values[name] = *value;
    }
    return values;
  }

  const FileSystem& fs() const { return fs_; }

 private:
  const FileSystem& fs_;
  uint64_t* errors_;
};

PortCounters ReadPortCounters(InventoryPass& pass, const std::string& port_dir) {
  PortCounters counters;
  counters.counters = pass.ReadCounterDir(JoinPath(port_dir, "counters"), nullptr);
  counters.hw_counters = pass.ReadCounterDir(JoinPath(port_dir, "hw_counters"), IsHwCounterSetting);
  auto find = [&](const char* name) -> std::optional<uint64_t> {
    auto it = counters.counters.find(name);
    if (it == counters.counters.end()) return std::nullopt;
    return it->second;
  };
  constexpr uint64_t kOctetsPerDataUnit = 4;  // port_*_data count 4-octet units
  if (auto v = find("port_xmit_data")) counters.transmit_bytes = *v * kOctetsPerDataUnit;
  if (auto v = find("port_rcv_data")) counters.receive_bytes = *v * kOctetsPerDataUnit;
  counters.transmit_packets = find("port_xmit_packets");
  counters.receive_packets = find("port_rcv_packets");
  return counters;
}

// The device's netdevs by port number (device/net/<if>, dev_port when there are several ports).
std::map<uint32_t, std::set<std::string>> ReadPortNetdevs(InventoryPass& pass,
                                                          const std::string& dev_dir,
                                                          const std::vector<uint32_t>& ports) {
  std::map<uint32_t, std::set<std::string>> netdevs;
  if (ports.empty()) return netdevs;
  const std::string net_dir = JoinPath(dev_dir, "device/net");
  for (const std::string& entry : pass.List(net_dir, /*absent_ok=*/true)) {
    auto name = ParseNetdevName(entry);
    if (!name.ok()) continue;
    uint32_t port = ports.front();
    if (ports.size() > 1) {
      auto dev_port = pass.Read(JoinPath(net_dir, entry + "/dev_port"));
      if (!dev_port) continue;
      auto value = ParseCounterValue(*dev_port);
      if (!value.ok() || *value >= UINT32_MAX) continue;
      port = static_cast<uint32_t>(*value) + 1;
    }
    netdevs[port].insert(*name);
  }
  return netdevs;
}

}  // namespace

SysfsInventory::SysfsInventory(const FileSystem& fs, std::string sysfs_root)
    : fs_(fs), sysfs_root_(std::move(sysfs_root)) {}

StatusOr<NodeSnapshot> SysfsInventory::Read(GidTableSource* gid_source, bool read_counters) const {
  auto root = fs_.ListDir(sysfs_root_);
  if (!root.ok()) return root.status();

  NodeSnapshot snapshot;
  uint64_t& errors = snapshot.read_errors["sysfs"];
  if (gid_source != nullptr) snapshot.read_errors[gid_source->name()] += 0;
  InventoryPass pass(fs_, &errors);

  const std::string class_dir = JoinPath(sysfs_root_, "class/infiniband");
  auto device_names = fs_.ListDir(class_dir);
  if (!device_names.ok()) {
    if (device_names.status().code() == StatusCode::kNotFound) return snapshot;  // no RDMA
    return device_names.status();
  }
  std::sort(device_names->begin(), device_names->end(), NaturalLess);

  for (const std::string& dev_name : *device_names) {
    const std::string dev_dir = JoinPath(class_dir, dev_name);
    auto port_names = fs_.ListDir(JoinPath(dev_dir, "ports"));
    if (!port_names.ok()) {
      if (port_names.status().code() != StatusCode::kNotFound) ++errors;
      continue;  // gone, or not a device we can read
    }
    Device device;
    device.name = dev_name;
    device.fw_ver = pass.ReadText(JoinPath(dev_dir, "fw_ver"));
    device.hca_type = pass.ReadText(JoinPath(dev_dir, "hca_type"));
    device.node_guid = pass.ReadText(JoinPath(dev_dir, "node_guid"));

    std::vector<uint32_t> numbers;
    for (const std::string& name : *port_names) {
      if (auto number = ParsePortNumber(name)) numbers.push_back(*number);
    }
    std::sort(numbers.begin(), numbers.end());
    auto netdevs = ReadPortNetdevs(pass, dev_dir, numbers);

    for (uint32_t number : numbers) {
      const std::string port_dir = JoinPath(dev_dir, "ports/" + std::to_string(number));
      Port port;
      port.number = number;
      auto state = pass.Read(JoinPath(port_dir, "state"));
      if (!state && !fs_.IsDirectory(port_dir)) continue;  // the port vanished
      if (state) port.state = StateName(*state);
      if (auto phys = pass.Read(JoinPath(port_dir, "phys_state")))
        port.phys_state = StateName(*phys);
      port.link_layer = pass.ReadText(JoinPath(port_dir, "link_layer"));
      port.rate = pass.ReadText(JoinPath(port_dir, "rate"));
      port.gid_table_len =
          static_cast<uint32_t>(pass.List(JoinPath(port_dir, "gids"), /*absent_ok=*/false).size());
      if (read_counters) port.counters = ReadPortCounters(pass, port_dir);
      const auto& port_netdevs = netdevs[number];
      port.netdevs.assign(port_netdevs.begin(), port_netdevs.end());
      device.ports.push_back(std::move(port));
    }

    if (gid_source != nullptr) {
      auto gids = gid_source->ReadDevice(dev_name);
      if (!gids.ok() && gids.status().code() == StatusCode::kNotFound) continue;  // vanished
      if (!gids.ok()) {
        ++snapshot.read_errors[gid_source->name()];
      } else {
        snapshot.read_errors[gid_source->name()] += gids->failed_reads;
        for (GidEntry& entry : gids->entries) {
          auto port = std::find_if(device.ports.begin(), device.ports.end(),
                                   [&](const Port& p) { return p.number == entry.port; });
          if (port == device.ports.end()) continue;
          if (!entry.netdev.empty()) port->netdevs.push_back(entry.netdev);
          port->gids.push_back(std::move(entry));
        }
      }
    }
    for (Port& port : device.ports) {
      std::sort(port.netdevs.begin(), port.netdevs.end());
      port.netdevs.erase(std::unique(port.netdevs.begin(), port.netdevs.end()), port.netdevs.end());
      std::sort(port.gids.begin(), port.gids.end(),
                [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
    }
    if (!fs_.IsDirectory(dev_dir)) continue;  // vanished while being read
    snapshot.devices.push_back(std::move(device));
  }
  return snapshot;
}

}  // namespace rocewatch
