#pragma once
// The RNIC netdevs' link quality for a one-shot `rocewatch diagnose` (docs/diagnose.md, "Link
// quality"). A single look cannot rate a counter, so the look takes two samples `window` apart
// (recordings under the host root take precedence over the kernel, and are read again for the
// second sample, so a recording rewritten in between is seen) and feeds both to the daemon's
// detectors, scaled to that span. The wait is skipped when no netdev has a counter to rate (no
// FEC, PHY error or pause-duration counter: veth, a driver that refuses the requests), or when
// every such netdev's figures come from elsewhere (the daemon). Netdevs neither present here nor
// recorded are left out; modules are read once, during the window, unless `optics` is off or the
// daemon read them lately (`modules_by_daemon`: I2C reads are slow and contend with the driver).

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "ethtool/ethtool_poller.h"
#include "link_quality/link_quality_report.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

struct LinkQualityLookOptions {
  bool optics = true;
  // Span between the two samples; zero: one sample, no rates (states `unknown`).
  Duration window = std::chrono::seconds(2);
  // Netdevs whose windowed figures the caller has from elsewhere: read once, never waited for.
  std::set<std::string> figures_elsewhere;
  // Netdevs whose module the daemon read, and how long ago: not read again; their optics findings
  // are the daemon's (LinkQualityEntry::module_by_daemon).
  std::map<std::string, Duration> modules_by_daemon;
};

// Blocks for the given time (the caller's event loop; tests advance a fake clock and rewrite
// recordings instead).
using WaitFor = std::function<void(Duration)>;

// True if the readings hold a counter the link-quality or PFC detectors rate.
bool HasRateableCounters(const NetdevEthtool& readings);

struct LinkQualityLook {
  std::vector<LinkQualityEntry> entries;  // by netdev name
  // What the window supports (link_quality_degraded/failing, pfc_storm_*, worded as the daemon's
  // detectors word them) and what a single look does (OneShotLinkQualityFindings).
  std::vector<Finding> findings;
};

// The poller reads through the ethtool sources of the host environment (HostEnv::ethtool).
// REQUIRES: poller, clock and wait outlive the call.
LinkQualityLook LookAtLinkQuality(EthtoolPoller& poller, const std::vector<std::string>& netdevs,
                                  const Clock& clock, const WaitFor& wait,
                                  const LinkQualityLookOptions& options);

}  // namespace rocewatch
