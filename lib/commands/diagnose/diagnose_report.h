#pragma once
// The `rocewatch diagnose` report: the node as observed, with findings, rendered for a person
// (text, like show_gids) or a program (JSON as in docs/contract.md).

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "diagnose/rail_neighbors.h"
#include "link_quality/link_quality_report.h"
#include "model/finding.h"
#include "model/node.h"
#include "model/rail_consumer.h"
#include "os/netdev_reader.h"

namespace rocewatch {

struct NetdevReport {
  NetdevObservation observation;
  std::string managed_by = "unknown";  // NetworkManager | systemd-networkd | ifupdown | unknown
};

struct DiagnoseReport {
  std::string gid_source;  // "verbs" | "sysfs"
  NodeSnapshot snapshot;
  std::vector<NetdevReport> netdevs;  // the RNIC netdevs, by name
  std::vector<Finding> findings;
  // Lines describing what `--watch` saw, in order (empty without --watch).
  std::vector<std::string> watch_log;
  // The "link quality" section: RNIC netdevs whose ethtool interfaces (or recordings) answered.
  std::vector<LinkQualityEntry> link_quality;
  // Who uses each rail (devices[].consumers[] in JSON, "Who uses each rail" in text); absent
  // when consumers were not looked for.
  std::optional<ConsumerObservation> consumers;
  // Each RoCE port netdev's LLDP neighbor, where known (devices[].ports[].neighbor in JSON, the
  // "far end" line of each port in text); a RoCE port without an entry shows it as unknown.
  std::map<std::string, RailNeighborReport> neighbors;
  // The daemon's recent warning and critical events ("<time>  <line>"), oldest first (empty
  // without a daemon).
  std::vector<std::string> daemon_events;
  // When the merged daemon answer is a bundle's recording: when `collect` asked the daemon (Unix
  // time); the "daemon" finding then carries "recorded_at" in JSON, and the text says so.
  std::optional<double> daemon_recorded_at_unix;
};

// "healthy" (no warning or critical finding), "warning" or "critical".
const char* ReportStatus(const DiagnoseReport& report);
// The diagnose exit status of the contract: 0 healthy, 1 warnings, 2 critical.
int ReportExitStatus(const DiagnoseReport& report);

nlohmann::ordered_json ReportToJson(const DiagnoseReport& report);

struct TextStyle {
  bool color = false;  // ANSI colours (a terminal, NO_COLOR unset)
};
std::string RenderReportText(const DiagnoseReport& report, const TextStyle& style);

}  // namespace rocewatch
