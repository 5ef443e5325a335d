#include "model/rnic_netdevs.h"

#include <algorithm>
#include <set>

#include "core/natural_less.h"

namespace rocewatch {

std::vector<std::string> RnicNetdevs(const NodeSnapshot& snapshot, RnicNetdevScope scope) {
  std::set<std::string> names;
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      if (scope == RnicNetdevScope::kRoce && !port.IsRoce()) continue;
      if (scope == RnicNetdevScope::kPort) {
        if (!port.own_netdevs.empty())
          names.insert(port.own_netdevs.begin(), port.own_netdevs.end());
        else if (std::string primary = PrimaryNetdev(port); !primary.empty())
          names.insert(std::move(primary));
        continue;
      }
      if (scope != RnicNetdevScope::kGid) names.insert(port.netdevs.begin(), port.netdevs.end());
      for (const GidEntry& gid : port.gids)
        if (!gid.netdev.empty()) names.insert(gid.netdev);
    }
  std::vector<std::string> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end(), NaturalLess);
  return sorted;
}

}  // namespace rocewatch
