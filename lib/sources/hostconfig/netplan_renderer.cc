#include "hostconfig/netplan_renderer.h"

#include <set>
#include <vector>

#include "core/text.h"

namespace rocewatch {
namespace {

const std::set<std::string, std::less<>> kDeviceTypes = {
    "ethernets", "bonds",         "bridges",           "vlans",     "wifis", "tunnels", "vrfs",
    "modems",    "dummy-devices", "virtual-ethernets", "nm-devices"};

std::string Unquote(std::string_view value) {
  value = Trim(value);
  if (size_t hash = value.find(" #"); hash != std::string_view::npos)
    value = Trim(value.substr(0, hash));
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front())
    value = value.substr(1, value.size() - 2);
  return std::string(value);
}

}  // namespace

std::optional<std::string> NetplanRenderers::RendererOf(std::string_view netdev) const {
  for (const auto& [id, device] : devices) {
    if (id != netdev && device.set_name != netdev) continue;
    if (!device.renderer.empty()) return device.renderer;
    if (!global_renderer.empty()) return global_renderer;
    return std::string("networkd");
  }
  return std::nullopt;
}

NetplanRenderers ParseNetplanRenderers(std::string_view yaml) {
  NetplanRenderers result;
  struct Level {
    size_t indent;
    std::string key;
  };
  std::vector<Level> path;
  for (std::string_view raw : SplitLines(yaml)) {
    size_t indent = raw.find_first_not_of(' ');
    if (indent == std::string_view::npos) continue;
    std::string_view line = Trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == '-' || line == "---") continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = Unquote(line.substr(0, colon));
    std::string value = Unquote(line.substr(colon + 1));
    while (!path.empty() && path.back().indent >= indent) path.pop_back();
    path.push_back({indent, key});
    if (path[0].key != "network") continue;
    result.has_network = true;
    if (path.size() == 2 && key == "renderer") result.global_renderer = value;
    if (path.size() >= 3 && kDeviceTypes.count(path[1].key) != 0) {
      NetplanDevice& device = result.devices[path[2].key];
      if (path.size() == 4 && key == "renderer") device.renderer = value;
      if (path.size() == 4 && key == "set-name") device.set_name = value;
    }
  }
  return result;
}

}  // namespace rocewatch
