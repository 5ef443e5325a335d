#pragma once
// The daemon's answer in a support bundle (docs/bundle.md): what `collect --daemon URL` was told
// by the running daemon, which `diagnose --host-root BUNDLE` merges as it merges a live daemon's
// (diagnose/daemon_view.h), marked as recorded at collection time.
//   rocewatch/daemon/answer.json    {"url", "asked_at_unix", "answered": bool, "error",
//                                    "metrics_error", "state_error"}: always, when the daemon
//                                    was asked
//   rocewatch/daemon/findings.json  GET /api/v1/findings as served (when it answered)
//   rocewatch/daemon/metrics.prom   GET /metrics as served (when that answered too)
//   rocewatch/daemon/state.json     GET /api/v1/state as served (when that answered too; absent
//                                    for a daemon older than it: then read from metrics.prom)
// A bundle is untrusted: each file is read within a bound (an oversized one is refused, never cut)
// and validated as the live answer is.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnose/daemon_view.h"
#include "os/file_system.h"

namespace rocewatch {

inline constexpr std::string_view kDaemonAnswerRecordingPath = "rocewatch/daemon/answer.json";
inline constexpr std::string_view kDaemonFindingsRecordingPath = "rocewatch/daemon/findings.json";
inline constexpr std::string_view kDaemonMetricsRecordingPath = "rocewatch/daemon/metrics.prom";
inline constexpr std::string_view kDaemonStateRecordingPath = "rocewatch/daemon/state.json";
// Bounds of the recorded documents: those of the live answer (export/http_fetch.h) for the
// documents; answer.json is small.
inline constexpr size_t kMaxDaemonDocumentBytes = 16 << 20;
inline constexpr size_t kMaxDaemonAnswerBytes = 64 << 10;

// The files recording `view` (asked at `url` at `asked_at_unix`), by bundle path: answer.json,
// and the documents the view holds. REQUIRES: view is what ViewDaemon returned.
std::vector<std::pair<std::string, std::string>> DaemonRecordingFiles(const DaemonView& view,
                                                                      const std::string& url,
                                                                      double asked_at_unix);

// The line for the bundle's failures when the daemon's findings were not recorded; empty when
// they were (a /metrics failure alone is noted in answer.json).
std::string DaemonRecordingFailure(const DaemonView& view, const std::string& url);

// The recorded answer under `host_root`, viewed as ViewDaemon views a live one (`boot_id`: the
// bundle's host's); nullopt when the bundle holds no recording. An unreadable, oversized or
// corrupt recording is a view whose problem says so.
std::optional<DaemonView> ReadDaemonRecording(const FileSystem& fs, const std::string& host_root,
                                              const std::string& boot_id);

}  // namespace rocewatch
