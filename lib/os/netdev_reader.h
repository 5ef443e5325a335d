#pragma once
// One-shot netdev state for `rocewatch diagnose` and `rocewatch collect`: link state and addresses
// from the live network namespace, carrier and ifindex from sysfs class/net under the configured
// sysfs root when the netdev is not in this namespace (fixture trees, a host root mounted from
// elsewhere). Abstract so that the report can be tested with values; the real one is
// NetlinkNetdevReader (netlink/netlink_netdev_reader.h), on the daemon's rtnetlink stack.

#include <map>
#include <string>
#include <vector>

#include "model/netdev.h"

namespace rocewatch {

struct NetdevObservation {
  NetdevState state;
  bool in_namespace = false;   // found in this network namespace: addresses are known
  bool carrier_known = false;  // carrier came from the namespace or from sysfs
};

class NetdevReader {
 public:
  virtual ~NetdevReader() = default;
  // The observation of each named netdev (every name gets an entry).
  virtual std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) = 0;
};

}  // namespace rocewatch
