#include "sysfs/netdev_mtu.h"

#include "core/text.h"

namespace rocewatch {

std::optional<int> ReadNetdevMtu(const FileSystem& fs, const HostPaths& paths,
                                 const std::string& netdev) {
  StatusOr<std::string> text = fs.ReadFile(paths.NetClassDir() + "/" + netdev + "/mtu", 32);
  long long mtu = 0;
  if (!text.ok() || !ParseInteger(Trim(*text), &mtu) || mtu <= 0 || mtu > 1 << 20)
    return std::nullopt;
  return static_cast<int>(mtu);
}

}  // namespace rocewatch
