#pragma once
// A netdev's MTU, from <sysfs_root>/class/net/<netdev>/mtu.

#include <optional>
#include <string>

#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

// nullopt when the attribute is unreadable, not a number, or outside 1..1 MiB.
std::optional<int> ReadNetdevMtu(const FileSystem& fs, const HostPaths& paths,
                                 const std::string& netdev);

}  // namespace rocewatch
