#pragma once
// ifupdown's /etc/network/interfaces syntax (interfaces(5)): "iface <name> <family> <method>"
// stanzas followed by option lines, "auto"/"allow-*" lines, and "source"/"source-directory"
// includes. A pure parser: the reader (netdev_management.cc) follows the includes.

#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

struct IfaceStanza {
  std::string name;    // the logical interface name, usually the netdev
  std::string family;  // inet, inet6, ...
  std::string method;  // static, dhcp, manual, loopback, ...
  int line = 0;
  // Its `address` option (with a /prefix, or its `netmask` made one for inet) and that line.
  std::string address{};
  int address_line = 0;
};

struct InterfacesFile {
  std::vector<IfaceStanza> ifaces;
  std::vector<std::string> auto_names;          // auto / allow-hotplug / allow-auto
  std::vector<std::string> sources;             // "source" patterns, as written
  std::vector<std::string> source_directories;  // "source-directory" paths, as written
  std::vector<int> malformed_lines;             // an iface line without family and method
};

// Never fails. Comments ('#' at the start of a line) and option lines other than `address` and
// `netmask` are skipped; a trailing '\' continues a line.
InterfacesFile ParseInterfacesFile(std::string_view text);

}  // namespace rocewatch
