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
      // A port's GIDs name one or two netdevs over up to 255 entries, in runs: look one up only
      // where the run changes.
      const std::string* last = nullptr;
      for (const GidEntry& gid : port.gids) {
        if (gid.netdev.empty() || (last != nullptr && gid.netdev == *last)) continue;
        names.insert(gid.netdev);
        last = &gid.netdev;
      }
    }
  std::vector<std::string> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end(), NaturalLess);
  return sorted;
}

}  // namespace rocewatch
