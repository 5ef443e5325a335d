#pragma once
// The "link quality" section of `rocewatch diagnose` (text and JSON, docs/diagnose.md): per RNIC
// netdev, what the ethtool interfaces answered, the detectors' states when the daemon or
// `--watch` observed a window, and the transceiver's readings against its own thresholds.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ethtool/ethtool_poller.h"
#include "link_quality/link_quality_detector.h"
#include "link_quality/optics_detector.h"
#include "link_quality/pfc_storm_detector.h"

namespace rocewatch {

// Where an entry's windowed figures (state, pre-FEC BER, PFC paused ratios, storms) come from.
enum class LinkFiguresSource {
  kNone,     // no window: one sample (--link-window 0), the link is down, or nothing to rate
  kSampled,  // this run's two samples --link-window apart
  kWatch,    // this run's --watch period
  kDaemon,   // the running daemon's detectors (its /metrics), over its own windows
};
const char* LinkFiguresSourceLabel(LinkFiguresSource source);  // "none" | "sampled" | ...

struct LinkQualityEntry {
  std::string netdev;
  NetdevEthtool readings;                    // the latest poll
  std::optional<LinkQualityStatus> quality;  // absent: no window observed
  LinkFiguresSource figures = LinkFiguresSource::kNone;
  std::string no_figures_reason;  // with kNone: why there is no window, for the reader
  std::vector<std::pair<PfcKey, PfcPriorityStatus>> pfc;  // priorities with pause counters
  std::optional<ModuleOutcome> module;                    // absent: optics not read
  OpticsStatus optics;
  // The daemon read the module this long ago, so this run did not (module absent): the daemon's
  // optics findings of the netdev stand for it.
  std::optional<Duration> module_by_daemon;
};

nlohmann::ordered_json LinkQualityToJson(const std::vector<LinkQualityEntry>& entries);
// The section's lines (no heading), one block per netdev; empty for no entries.
std::string RenderLinkQualityText(const std::vector<LinkQualityEntry>& entries);

// A netdev's ethtool requests that failed (not unsupported: failed), as a read_failed finding
// naming them (3 at most, then a count) and what they leave unknown; nullopt when none failed.
std::optional<Finding> EthtoolReadFailure(const std::string& netdev, const NetdevEthtool& readings);

// Findings a single look can support: optics against the module's thresholds, why a link that is
// down is down (link_down_reason, warning), and failed ethtool requests (EthtoolReadFailure).
std::vector<Finding> OneShotLinkQualityFindings(const std::vector<LinkQualityEntry>& entries);

}  // namespace rocewatch
