#include "sysfs/sysfs_gid_table_source.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

std::optional<uint32_t> ParseIndexName(const std::string& name) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
  if (name.empty() || ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return value;
}

}  // namespace

SysfsGidTableSource::SysfsGidTableSource(const FileSystem& fs, std::string sysfs_root)
    : fs_(fs), sysfs_root_(std::move(sysfs_root)) {}

StatusOr<GidTableRead> SysfsGidTableSource::ReadDevice(const std::string& device) {
  const std::string ports_dir = JoinPath(sysfs_root_, "class/infiniband/" + device + "/ports");
  auto ports = fs_.ListDir(ports_dir);
  if (!ports.ok()) return ports.status();

  GidTableRead read;
  for (const std::string& port_name : *ports) {
    std::optional<uint32_t> port = ParseIndexName(port_name);
    if (!port) continue;
    const std::string port_dir = JoinPath(ports_dir, port_name);
    auto link_layer = fs_.ReadFile(JoinPath(port_dir, "link_layer"));
    const bool infiniband = link_layer.ok() && ParsePlainText(*link_layer) == "InfiniBand";

    auto slots = fs_.ListDir(JoinPath(port_dir, "gids"));
    if (!slots.ok()) {
      ++read.failed_reads;
      continue;
    }
    for (const std::string& slot_name : *slots) {
      std::optional<uint32_t> index = ParseIndexName(slot_name);
      if (!index) continue;
      auto raw_gid = fs_.ReadFile(JoinPath(port_dir, "gids/" + slot_name));
      StatusOr<std::string> gid = raw_gid.ok() ? ParseGid(*raw_gid) : raw_gid.status();
      if (!gid.ok()) {
        ++read.failed_reads;
        continue;
      }
      if (IsZeroGid(*gid)) continue;  // not an entry: its attributes are not touched

      auto type_text = fs_.ReadFile(JoinPath(port_dir, "gid_attrs/types/" + slot_name));
      if (!type_text.ok()) {
        ++read.failed_reads;
        continue;
      }
      GidEntry entry{*port, *index, std::move(*gid), ParseGidType(*type_text), ""};
      if (infiniband) {
        if (entry.type == GidType::kRoceV1) entry.type = GidType::kIb;
      } else {
        auto ndev_text = fs_.ReadFile(JoinPath(port_dir, "gid_attrs/ndevs/" + slot_name));
        StatusOr<std::string> ndev =
            ndev_text.ok() ? ParseNetdevName(*ndev_text) : ndev_text.status();
        if (!ndev.ok()) {
          ++read.failed_reads;
          continue;
        }
        entry.netdev = std::move(*ndev);
      }
      read.entries.push_back(std::move(entry));
    }
  }
  std::sort(read.entries.begin(), read.entries.end(), [](const GidEntry& a, const GidEntry& b) {
    return a.port != b.port ? a.port < b.port : a.index < b.index;
  });
  return read;
}

}  // namespace rocewatch
