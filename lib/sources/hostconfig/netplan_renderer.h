#pragma once
// Which renderer netplan hands each interface to: `renderer: NetworkManager | networkd` at the
// `network:` level (the default for every device) or inside one device's definition.
//
// Deliberately NOT a YAML parser (the project adds no YAML library): a line-based reading of
// block-style mappings by indentation. It understands
//   network: / renderer: / <ethernets|bonds|bridges|vlans|wifis|...>: / <id>: / renderer: /
//   set-name:
// and ignores everything else. Flow style ({...}), anchors and `match:` blocks are not
// interpreted; a device matched by `match: name:` rather than by its id or set-name falls back
// to the global renderer. Good enough to say "netplan renders this netdev with X", which is
// what the check needs; the runtime state under /run remains the stronger evidence.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch {

struct NetplanDevice {
  std::string renderer;  // empty when the device does not set one
  std::string set_name;  // empty when absent
};

struct NetplanRenderers {
  bool has_network = false;     // a top-level `network:` key was seen
  std::string global_renderer;  // empty when not set (netplan's default is networkd)
  std::map<std::string, NetplanDevice> devices;  // by netplan id

  // The renderer of `netdev` (by id or set-name), else the global one, else "networkd" when the
  // file has a network: section; nullopt when this file does not define the netdev at all.
  std::optional<std::string> RendererOf(std::string_view netdev) const;
};

NetplanRenderers ParseNetplanRenderers(std::string_view yaml);

}  // namespace rocewatch
