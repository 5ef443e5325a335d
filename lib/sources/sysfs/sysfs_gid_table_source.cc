#include "sysfs/sysfs_gid_table_source.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {

SysfsGidTableSource::SysfsGidTableSource(const FileSystem& fs, std::string sysfs_root,
                                         size_t max_open)
    : fs_(fs),
      sysfs_root_(std::move(sysfs_root)),
      keep_layouts_(max_open > 0),
      reader_(fs, max_open) {}

void SysfsGidTableSource::ForgetLayout() {
  std::erase_if(layouts_, [](const auto& entry) { return !entry.second.read; });
  for (auto& [device, layout] : layouts_) layout.read = false;
}

void SysfsGidTableSource::ReadWholeTablesNext() {
  for (auto& [device, layout] : layouts_)
    for (PortSlots& port : layout.ports) port.read_whole = true;
}

StatusOr<SysfsGidTableSource::DeviceSlots> SysfsGidTableSource::List(const std::string& device,
                                                                     DeviceSlots* previous) {
  std::map<std::string, KeptAttribute> open;  // descriptors kept across the listing
  if (previous != nullptr)
    for (PortSlots& port : previous->ports)
      for (Slot& slot : port.slots)
        if (slot.gid.is_open()) open.emplace(slot.gid.path(), std::move(slot.gid));
  const std::string ports_dir = JoinPath(sysfs_root_, "class/infiniband/" + device + "/ports");
  auto ports = fs_.ListDir(ports_dir);
  if (!ports.ok()) return ports.status();
  DeviceSlots layout;
  for (const std::string& port_name : *ports) {
    std::optional<uint32_t> port = ParseEntryNumber(port_name);
    if (!port) continue;
    PortSlots slots;
    slots.port = *port;
    slots.dir = JoinPath(ports_dir, port_name);
    auto link_layer = fs_.ReadFile(JoinPath(slots.dir, "link_layer"));
    slots.infiniband = link_layer.ok() && ParsePlainText(*link_layer) == "InfiniBand";
    const std::string gids_dir = JoinPath(slots.dir, "gids");
    auto names = fs_.ListDir(gids_dir);
    if (!names.ok()) {
      layout.failed_listings.push_back({*port, std::nullopt, gids_dir, names.status().sys_errno()});
      continue;
    }
    for (std::string& name : *names) {
      std::optional<uint32_t> index = ParseEntryNumber(name);
      if (!index) continue;
      std::string path = JoinPath(slots.dir, "gids/" + name);
      auto kept = open.find(path);
      KeptAttribute gid = kept != open.end() ? std::move(kept->second) : KeptAttribute(path);
      slots.slots.push_back({*index, std::move(name), std::move(gid)});
    }
    std::sort(slots.slots.begin(), slots.slots.end(),
              [](const Slot& a, const Slot& b) { return a.index < b.index; });
    layout.ports.push_back(std::move(slots));
  }
  return layout;
}

bool SysfsGidTableSource::ReadSlots(DeviceSlots& layout, GidTableRead& read) {
  read.failed_reads += layout.failed_listings.size();
  read.unreadable = layout.failed_listings;
  bool complete = true;
  const uint64_t reopens_before = reader_.stats().reopens;
  for (PortSlots& port : layout.ports) {
    bool whole = port.read_whole || !keep_layouts_;
    uint32_t zero_run = 0;  // consecutive zero GIDs above the high-water mark
    for (Slot& slot : port.slots) {
      // A kept descriptor that had to be reopened: the device was created again, a new table.
      whole = whole || reader_.stats().reopens != reopens_before;
      const bool above_mark = static_cast<int64_t>(slot.index) > port.high_water;
      if (!whole && above_mark && zero_run >= kGidScanMargin) break;
      ++read_stats_.slots_read;
      Status status = reader_.Read(slot.gid, &text_);
      if (!status.ok() && status.code() == StatusCode::kNotFound) complete = false;
      StatusOr<std::string> gid = status.ok() ? ParseGid(text_) : status;
      if (!gid.ok()) {
        ++read.failed_reads;
        read.unreadable.push_back(
            {port.port, slot.index, slot.gid.path(), gid.status().sys_errno()});
        zero_run = 0;  // unknown: not evidence of a free slot
        continue;
      }
      if (IsZeroGid(*gid)) {  // not an entry: its attributes are not touched
        if (above_mark) ++zero_run;
        continue;
      }
      zero_run = 0;
      port.high_water = std::max(port.high_water, static_cast<int64_t>(slot.index));
      ReadEntry(port, slot, std::move(*gid), read);
    }
    ++(whole ? read_stats_.whole_port_reads : read_stats_.bounded_port_reads);
    port.read_whole = false;
  }
  return complete;
}

void SysfsGidTableSource::ReadEntry(const PortSlots& port, const Slot& slot, std::string gid,
                                    GidTableRead& read) {
  const std::string type_path = JoinPath(port.dir, "gid_attrs/types/" + slot.name);
  auto type_text = fs_.ReadFile(type_path);
  if (!type_text.ok()) {
    ++read.failed_reads;
    read.unreadable.push_back({port.port, slot.index, type_path, type_text.status().sys_errno()});
    return;
  }
  GidEntry entry{port.port, slot.index, std::move(gid), ParseGidType(*type_text), ""};
  if (port.infiniband) {
    if (entry.type == GidType::kRoceV1) entry.type = GidType::kIb;
  } else {
    const std::string ndev_path = JoinPath(port.dir, "gid_attrs/ndevs/" + slot.name);
    auto ndev_text = fs_.ReadFile(ndev_path);
    StatusOr<std::string> ndev = ndev_text.ok() ? ParseNetdevName(*ndev_text) : ndev_text.status();
    if (!ndev.ok()) {
      ++read.failed_reads;
      read.unreadable.push_back({port.port, slot.index, ndev_path, ndev.status().sys_errno()});
      return;
    }
    entry.netdev = std::move(*ndev);
  }
  read.entries.push_back(std::move(entry));
}

StatusOr<GidTableRead> SysfsGidTableSource::ReadDevice(const std::string& device) {
  auto kept = layouts_.find(device);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (kept == layouts_.end() || kept->second.stale) {
      StatusOr<DeviceSlots> listed = List(device, kept == layouts_.end() ? nullptr : &kept->second);
      if (!listed.ok()) {
        if (kept != layouts_.end()) layouts_.erase(kept);
        return listed.status();
      }
      kept = layouts_.insert_or_assign(device, std::move(*listed)).first;
    }
    GidTableRead read;
    kept->second.read = true;
    const bool complete = ReadSlots(kept->second, read);
    if (complete || attempt == 1) {
      if (!keep_layouts_) layouts_.erase(kept);
      std::sort(read.entries.begin(), read.entries.end(), [](const GidEntry& a, const GidEntry& b) {
        return a.port != b.port ? a.port < b.port : a.index < b.index;
      });
      return read;
    }
    kept->second.stale = true;  // a slot file is gone: list the device again
  }
  return GidTableRead{};  // not reached
}

}  // namespace rocewatch
