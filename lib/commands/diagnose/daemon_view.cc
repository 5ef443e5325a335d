#include "diagnose/daemon_view.h"

#include <algorithm>
#include <cmath>

#include "diagnose/daemon_state_from_metrics.h"
#include "model/traffic_state.h"

namespace rocewatch {
DaemonDocuments LiveDaemon(const HttpUrl& url, Duration timeout, const HttpFetch& fetch) {
  return [url, timeout, fetch](const std::string& path) -> StatusOr<std::string> {
    HttpUrl document = url;
    while (!document.path.empty() && document.path.back() == '/') document.path.pop_back();
    document.path += path;
    StatusOr<FetchedPage> page = fetch(document, timeout);
    if (!page.ok()) return page.status();
    if (page->status == 404) return Status::NotFound("HTTP 404 from " + document.path);
    if (page->status != 200)
      return Status::Unavailable("HTTP " + std::to_string(page->status) + " from " + document.path);
    return std::move(page->body);
  };
}

namespace {

// The state of /api/v1/state, or of /metrics for a daemon that does not serve it.
void TakeDaemonState(const DaemonDocuments& documents, DaemonView& view) {
  StatusOr<std::string> body = documents("/api/v1/state");
  if (!body.ok() && body.status().code() == StatusCode::kNotFound) {
    view.state_source = "/metrics";
    if (view.metrics_problem.empty()) {
      view.state = DaemonStateFromMetrics(view.metrics);
    } else {
      view.state_problem = view.metrics_problem;
    }
    return;
  }
  StatusOr<DaemonState> state =
      body.ok() ? ParseDaemonState(*body) : StatusOr<DaemonState>(body.status());
  if (!state.ok()) {
    view.state_problem = state.status().message();
    return;
  }
  view.state = std::move(*state);
  view.state_text = std::move(*body);
}

}  // namespace

DaemonView ViewDaemon(const DaemonDocuments& documents, const std::string& where,
                      const std::string& boot_id) {
  DaemonView view;
  view.where = where;
  StatusOr<std::string> body = documents("/api/v1/findings");
  StatusOr<DaemonFindings> findings =
      body.ok() ? ParseDaemonFindings(*body) : StatusOr<DaemonFindings>(body.status());
  if (!findings.ok()) {
    view.problem = findings.status();
    return view;
  }
  view.findings = std::move(*findings);
  view.findings_text = std::move(*body);
  if (!boot_id.empty() && !view.findings.boot_id.empty() && boot_id != view.findings.boot_id) {
    view.other_host = true;
    return view;
  }
  StatusOr<std::string> metrics = documents("/metrics");
  StatusOr<std::vector<ExposedSample>> samples =
      metrics.ok() ? ParseExposition(*metrics)
                   : StatusOr<std::vector<ExposedSample>>(metrics.status());
  if (samples.ok()) {
    view.metrics = std::move(*samples);
    view.metrics_text = std::move(*metrics);
  } else {
    view.metrics_problem = samples.status().message();
  }
  TakeDaemonState(documents, view);
  return view;
}

DaemonView AskDaemon(const DiagnoseOptions& options, const std::string& boot_id,
                     const HttpFetch& fetch) {
  return ViewDaemon(LiveDaemon(*options.daemon, options.daemon_timeout, fetch), options.daemon_text,
                    boot_id);
}

std::set<std::string> NetdevsWithDaemonLinkFigures(const DaemonState& state) {
  std::set<std::string> netdevs;
  for (const DaemonNetdevState& n : state.netdevs) netdevs.insert(n.netdev);
  return netdevs;
}

DaemonOptics DaemonOpticsOf(const DaemonView& daemon) {
  DaemonOptics optics;
  if (!daemon.usable() || daemon.recorded || !daemon.state ||
      daemon.state_source != "/api/v1/state" || !daemon.state->optics_interval_seconds)
    return optics;
  const DaemonState& state = *daemon.state;
  const double interval = *state.optics_interval_seconds;
  if (!(interval > 0)) {
    optics.off = true;
    return optics;
  }
  constexpr double kClockSlack = 1;  // seconds: both times are the daemon's, rounded
  for (const DaemonNetdevState& n : state.netdevs) {
    if (!n.optics_read_at_unix) continue;
    const double age = state.generated_at_unix - *n.optics_read_at_unix;
    if (!(age >= -kClockSlack && age <= 2 * interval)) continue;
    optics.read[n.netdev] =
        std::chrono::duration_cast<Duration>(std::chrono::duration<double>(std::max(age, 0.0)));
  }
  return optics;
}

namespace {

// The reason of the daemon's link_quality_* finding of `netdev`, "" without one.
void TakeReason(const DaemonFindings& findings, const std::string& netdev,
                LinkQualityStatus& quality) {
  for (const Finding& f : findings.findings) {
    if (f.subject != netdev || f.check.rfind("link_quality_", 0) != 0) continue;
    const size_t colon = f.message.find(": ");
    quality.reason = colon == std::string::npos ? f.message : f.message.substr(colon + 2);
  }
}

}  // namespace

void TakeDaemonLinkFigures(const DaemonView& daemon, std::vector<LinkQualityEntry>& entries) {
  if (!daemon.usable() || !daemon.state) return;
  for (LinkQualityEntry& entry : entries) {
    if (entry.figures != LinkFiguresSource::kNone) continue;
    const DaemonNetdevState* netdev = nullptr;
    for (const DaemonNetdevState& n : daemon.state->netdevs)
      if (n.netdev == entry.netdev) netdev = &n;
    if (netdev == nullptr) continue;
    std::optional<LinkQualityStatus> quality;
    for (LinkQualityState state : kAllLinkQualityStates) {
      if (netdev->link_quality != LinkQualityStateLabel(state)) continue;
      quality.emplace();
      quality->state = state;
    }
    if (!quality) continue;
    quality->pre_fec_ber = netdev->pre_fec_ber;
    TakeReason(daemon.findings, entry.netdev, *quality);
    entry.quality = std::move(quality);
    entry.figures = LinkFiguresSource::kDaemon;
    entry.no_figures_reason.clear();
    entry.pfc.clear();
    for (const DaemonPfcState& p : netdev->pfc) {
      PfcKey key{entry.netdev, p.priority, p.transmit ? PauseDirection::kTx : PauseDirection::kRx};
      entry.pfc.emplace_back(key, PfcPriorityStatus{p.paused_fraction, p.storm});
    }
  }
}

std::map<PortKey, PortTrafficResume> DaemonTrafficView(const DaemonState& state, MonoTime now,
                                                       double now_unix) {
  MonoTime counters_at = now;
  const double age = now_unix - state.last_poll_unix;
  if (std::isfinite(age) && age > 0 && age < 3600)
    counters_at = now - std::chrono::duration_cast<Duration>(std::chrono::duration<double>(age));
  std::map<PortKey, PortTrafficResume> ports;
  for (const DaemonPortState& p : state.ports) {
    PortTrafficResume& port = ports[PortKey{p.device, p.port}];
    port.state = p.traffic_state;
    port.baseline = p.baseline;
    if (port.baseline && !(*port.baseline > 0)) port.baseline.reset();
    port.node_wide = p.node_wide;
    port.transmit_bytes = p.transmit_bytes;
    port.receive_bytes = p.receive_bytes;
    port.counters_at = counters_at;
  }
  return ports;
}

}  // namespace rocewatch
