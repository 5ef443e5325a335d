#pragma once
// What `rocewatch diagnose` takes from the running daemon at --daemon (docs/diagnose.md, "The
// daemon"): its live findings and recent events (GET /api/v1/findings) and, from its typed state
// (GET /api/v1/state, export/daemon_state.h), the windowed figures a one-shot run cannot have:
// per netdev the link-quality state, pre-FEC BER and PFC paused ratios and storms; per port the
// traffic detector's baseline, state and byte counters, where `diagnose --watch` starts from. A
// daemon older than /api/v1/state (404) has them taken from its /metrics instead
// (diagnose/daemon_state_from_metrics.h). Its /metrics is read too (rail neighbors). Asked once
// per run, each request bounded by the --daemon timeout; or read back from what `collect` recorded
// of that answer (diagnose/daemon_recording.h), through the same code.

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/host_env.h"
#include "daemon/options.h"
#include "export/daemon_findings.h"
#include "export/daemon_state.h"
#include "export/exposition_text.h"
#include "link_quality/link_quality_report.h"
#include "traffic/traffic_detector.h"

namespace rocewatch {

struct DaemonView {
  // Where the answer came from, for messages: the --daemon URL as given, or the recorded one.
  std::string where;
  // The answer is a bundle's recording (diagnose/daemon_recording.h), made when `collect` asked
  // at recorded_at_unix (unknown when the recording is unusable).
  bool recorded = false;
  std::optional<double> recorded_at_unix;
  // Why the daemon's findings cannot be used (unreachable, not a rocewatch answer); ok otherwise.
  Status problem = Status::Ok();
  // The daemon watches another host (its boot id is not `boot_id`): nothing of it is used.
  bool other_host = false;
  DaemonFindings findings;
  // Its /metrics; empty when that request failed (`metrics_problem` says why).
  std::vector<ExposedSample> metrics;
  std::string metrics_problem;
  // The daemon's typed state: from /api/v1/state, or from its /metrics when that answered 404
  // (`state_source` says which). Empty when neither could be read: `state_problem` says why.
  std::optional<DaemonState> state;
  std::string state_source = "/api/v1/state";
  std::string state_problem;
  // The documents as served, when they parsed (state: only when /api/v1/state answered), which
  // `collect` records.
  std::string findings_text, metrics_text, state_text;

  bool usable() const { return problem.ok() && !other_host; }
};

// One document of the daemon by its request path ("/api/v1/findings", "/api/v1/state",
// "/metrics"). Errors: why it is not there (unreachable, not HTTP 200, not recorded, larger than
// its bound); NotFound when the daemon does not serve it (HTTP 404) or it was not recorded.
using DaemonDocuments = std::function<StatusOr<std::string>(const std::string& path)>;

// The documents of the daemon at `url`, each GET through `fetch` bounded by `timeout`.
DaemonDocuments LiveDaemon(const HttpUrl& url, Duration timeout, const HttpFetch& fetch);

// The findings of `documents` and, when the daemon watches the host of `boot_id` (empty: unknown,
// taken as this host), its /metrics and its state. `where` names the source in messages.
DaemonView ViewDaemon(const DaemonDocuments& documents, const std::string& where,
                      const std::string& boot_id);

// Asks the daemon of `options` (REQUIRES: options.daemon) through `fetch` (HostEnv::fetch).
// `boot_id`: this report's host's.
DaemonView AskDaemon(const DiagnoseOptions& options, const std::string& boot_id,
                     const HttpFetch& fetch);

// The netdevs whose link-quality state the daemon's state holds.
std::set<std::string> NetdevsWithDaemonLinkFigures(const DaemonState& state);

// What the live daemon says of the transceiver modules, so that a one-shot run reads none more
// often than the daemon does (I2C reads are slow and contend with the driver).
struct DaemonOptics {
  // The daemon reads no module (--optics-interval 0 or --ethtool-interval 0: the operator's off
  // switch), so this run reads none either.
  bool off = false;
  // The netdevs whose module it read within twice its optics_interval, each with how long ago
  // (its state's generated_at minus the netdev's optics_read_at): this run takes its optics
  // findings for them instead of reading the module again.
  std::map<std::string, Duration> read;
};

// Nothing (this run reads every module) unless the daemon is usable and answered GET
// /api/v1/state live with an optics_interval: not for a bundle's recording (recorded pages cost no
// I2C read), nor for a daemon older than that document or field. A netdev is left out of `read`
// (this run reads it) until the daemon has read it, and when its latest read is over twice the
// interval old (a stalled reader) or dated ahead of the state.
DaemonOptics DaemonOpticsOf(const DaemonView& daemon);

// Gives each entry without windowed figures of its own (figures kNone) the daemon's: state, BER,
// the reason from its link_quality_* finding of that netdev, PFC paused ratios and storms.
void TakeDaemonLinkFigures(const DaemonView& daemon, std::vector<LinkQualityEntry>& entries);

// The traffic detector's view of each port of the daemon's state, with its counters dated by the
// state's last poll on `now`'s monotonic clock (`now_unix` is the same instant as Unix time).
std::map<PortKey, PortTrafficResume> DaemonTrafficView(const DaemonState& state, MonoTime now,
                                                       double now_unix);

}  // namespace rocewatch
