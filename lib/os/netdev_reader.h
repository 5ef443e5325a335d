#pragma once
// One-shot netdev state for `rocewatch diagnose`: link flags and addresses from the live network
// namespace (getifaddrs, i.e. an rtnetlink dump), carrier and ifindex from sysfs class/net under
// the configured sysfs root when the netdev is not in this namespace (fixture trees, a host root
// mounted from elsewhere). Abstract so that the report can be tested with values.

#include <map>
#include <string>
#include <vector>

#include "model/netdev.h"
#include "os/file_system.h"
#include "os/host_paths.h"

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

class SystemNetdevReader final : public NetdevReader {
 public:
  SystemNetdevReader(const FileSystem& fs, HostPaths paths) : fs_(fs), paths_(std::move(paths)) {}
  std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) override;

 private:
  const FileSystem& fs_;
  HostPaths paths_;
};

}  // namespace rocewatch
