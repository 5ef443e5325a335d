#pragma once
// The one-shot NetdevReader of `rocewatch diagnose` and `rocewatch collect`, on the daemon's
// netlink stack: one rtnetlink dump (netlink/netdev_dump.h) gives the link state, addresses and
// policy rules of the netdevs in the calling thread's network namespace; a netdev that is not in
// it (a fixture tree, a host root mounted from elsewhere) gets its ifindex, operstate, carrier
// and carrier_changes from sysfs class/net under the configured root.

#include <optional>
#include <vector>

#include "model/policy_rule.h"
#include "netlink/rtnetlink_source.h"
#include "os/file_system.h"
#include "os/host_paths.h"
#include "os/netdev_reader.h"

namespace rocewatch {

class NetlinkNetdevReader final : public NetdevReader {
 public:
  // REQUIRES: source and fs outlive the reader. The source is opened on the first Read.
  NetlinkNetdevReader(RtnetlinkSource& source, const FileSystem& fs, HostPaths paths)
      : source_(source), fs_(fs), paths_(std::move(paths)) {}

  std::map<std::string, NetdevObservation> Read(const std::vector<std::string>& names) override;

  // The policy rules tied to the netdevs of the last Read (their addresses as source, or one of
  // them as iif/oif); nullopt when rtnetlink could not be read.
  const std::optional<std::vector<PolicyRule>>& rules() const { return rules_; }
  // Why rtnetlink could not be read at the last Read; OK otherwise.
  const Status& dump_status() const { return dump_status_; }

 private:
  RtnetlinkSource& source_;
  const FileSystem& fs_;
  const HostPaths paths_;
  std::optional<std::vector<PolicyRule>> rules_;
  Status dump_status_;
};

}  // namespace rocewatch
