#pragma once
// Reads everything rocewatch wants from the ethtool interfaces of a set of netdevs: from the
// recordings under <host-root>/rocewatch/ethtool/<netdev>/ where a netdev has one, from the
// kernel otherwise (docs/bundle.md). One Poll per cadence; module pages on their own, slower
// cadence (PollModule).

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ethtool/driver_counter_meaning.h"
#include "ethtool/ethtool_sources.h"
#include "ethtool/module_eeprom.h"
#include "ethtool/recorded_ethtool_source.h"
#include "os/file_system.h"

namespace rocewatch {

// One request's outcome: answered, unsupported (EOPNOTSUPP) or failed.
enum class RequestOutcome { kNotAsked, kAnswered, kUnsupported, kFailed };

struct NetdevEthtool {
  bool recorded = false;  // read from a recording
  bool present = true;    // false: the netdev is not in this network namespace (ENODEV)
  std::optional<uint64_t> speed_mbps;  // sysfs class/net/<netdev>/speed
  std::optional<DriverStatistics> driver;
  InterpretedDriverCounters interpreted;  // of `driver`, by meaning
  std::optional<FecReading> fec;
  std::optional<LinkStateReading> link_state;
  std::optional<PauseReading> pause;
  std::optional<StandardStatistics> standard;
  std::map<std::string, RequestOutcome> outcomes;  // by request: statistics, fec, link_state, ...
  std::vector<std::string> errors;                 // one line per failed request
};

struct ModuleOutcome {
  std::optional<ModuleReading> module;  // decoded, when a module answered
  bool unsupported = false;             // no module access or no module (EOPNOTSUPP)
  std::string error;                    // a failed or undecodable read
  // The kernel refused the read for lack of a privilege (EPERM: module EEPROM reads are
  // admin-only), as opposed to a module that failed it: `error` names the capability.
  bool not_permitted = false;
  ModulePages pages;  // raw pages read (for support bundles)
};

class EthtoolPoller {
 public:
  // `live_*` may be null (no kernel access: recordings only). REQUIRES: all outlive the poller.
  EthtoolPoller(const FileSystem& fs, std::string host_root, std::string sysfs_root,
                DriverStatisticsSource* live_statistics, EthtoolNetlinkSource* live_netlink);

  std::map<std::string, NetdevEthtool> Poll(const std::set<std::string>& netdevs);
  // Reads and decodes a netdev's module pages (lower page, then what its standard needs).
  ModuleOutcome PollModule(const std::string& netdev);
  // LINKSTATE_GET now, for the reason of a link that just went down; "" when unknown.
  std::string LinkDownReason(const std::string& netdev);

  // Requests and ioctls issued so far (benchmarks).
  uint64_t reads() const { return reads_; }

 private:
  EthtoolNetlinkSource* NetlinkFor(const std::string& netdev);

  const FileSystem& fs_;
  const std::string sysfs_root_;
  RecordedEthtoolSource recorded_;
  DriverStatisticsSource* live_statistics_;
  EthtoolNetlinkSource* live_netlink_;
  uint64_t reads_ = 0;
};

const char* RequestOutcomeLabel(RequestOutcome outcome);  // "answered" | "unsupported" | ...

}  // namespace rocewatch
