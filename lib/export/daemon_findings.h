#pragma once
// The daemon's live findings and recent events, as served at GET /api/v1/findings and merged by
// `rocewatch diagnose --daemon URL` (docs/diagnose.md, docs/contract.md):
//   {"findings": [{"severity", "check", "subject", "message", "remedy",
//                  "since": "2026-12-01T08:17:23Z", "last_seen": "..."}],
//    "events": [{"time": "2026-12-01T08:17:23.869Z", "severity", "kind", "subject", "message"}],
//    "boot_id": "..."}   (the watched host's kernel boot id; absent when unknown)
// Pure: values in, text or values out.

#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "model/finding.h"

namespace rocewatch {

struct TimedFinding {
  Finding finding;
  // First evaluation that had it: in this run of the daemon, or in the previous run on the same
  // boot while the finding stayed open across the restart (the state file keeps the times).
  double since_unix_seconds = 0;
  double last_seen_unix_seconds = 0;  // latest evaluation that had it
};

// One line the daemon reported (MonitorContext::RecordEvent), e.g.
// "gid_drift device=mlx5_0 port=1 netdev=eth0 ... old_index=3 new_index=5" or "eth0: carrier down".
struct RecordedEvent {
  double unix_seconds = 0;
  Severity severity = Severity::kInfo;
  std::string what;
};

// "gid_drift" for "gid_drift device=...", the netdev for "eth0: carrier down", else "event".
std::string EventKind(std::string_view what);
// "mlx5_0/1" when the line has device= and port=, else its netdev= or "eth0:" prefix, else "".
std::string EventSubject(std::string_view what);

// RFC 3339 UTC: "2026-12-01T08:17:23Z" (seconds) or with ".869" milliseconds.
std::string FormatUtc(double unix_seconds, bool milliseconds);

nlohmann::ordered_json DaemonFindingsToJson(const std::vector<TimedFinding>& findings,
                                            const std::deque<RecordedEvent>& events,
                                            const std::string& boot_id);

// What diagnose reads back. Errors: Corrupt (not the document above); never throws.
struct DaemonFindings {
  struct Event {
    std::string time;  // as served
    Severity severity = Severity::kInfo;
    std::string kind, subject, message;
  };
  std::vector<Finding> findings;
  std::vector<std::string> since;  // parallel to findings, as served
  std::vector<Event> events;
  std::string boot_id;  // empty when the daemon did not say
};
StatusOr<DaemonFindings> ParseDaemonFindings(std::string_view text);

// Adds the daemon's findings to a one-shot's: one with the same check and subject as a local one
// is not repeated, but raises the local one's severity if the daemon rates it worse; the others
// are added with "(daemon, since T)" after their message.
void MergeDaemonFindings(const DaemonFindings& daemon, std::vector<Finding>& findings);

}  // namespace rocewatch
