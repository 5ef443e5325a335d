#include "diagnose/daemon_view.h"

#include <cmath>

#include "daemon/daemon_metric_names.h"
#include "inventory/inventory_metric_names.h"
#include "link_quality/link_quality_metric_names.h"
#include "model/traffic_state.h"
#include "traffic/traffic_metric_names.h"

namespace rocewatch {
namespace {

std::string Label(const ExposedSample& s, const std::string& name) {
  auto it = s.labels.find(name);
  return it == s.labels.end() ? "" : it->second;
}

std::optional<PortKey> PortOf(const ExposedSample& s) {
  const std::string device = Label(s, "device"), port = Label(s, "port");
  if (device.empty() || port.empty()) return std::nullopt;
  char* end = nullptr;
  const unsigned long number = std::strtoul(port.c_str(), &end, 10);
  if (*end != '\0' || number == 0 || number > 0xffff) return std::nullopt;
  return PortKey{device, static_cast<uint32_t>(number)};
}

std::optional<uint64_t> Count(double value) {
  if (!std::isfinite(value) || value < 0 || value >= 1.8e19) return std::nullopt;
  return static_cast<uint64_t>(value);
}

}  // namespace

DaemonDocuments LiveDaemon(const HttpUrl& url, Duration timeout, const HttpFetch& fetch) {
  return [url, timeout, fetch](const std::string& path) -> StatusOr<std::string> {
    HttpUrl document = url;
    while (!document.path.empty() && document.path.back() == '/') document.path.pop_back();
    document.path += path;
    StatusOr<FetchedPage> page = fetch(document, timeout);
    if (!page.ok()) return page.status();
    if (page->status != 200)
      return Status::Unavailable("HTTP " + std::to_string(page->status) + " from " + document.path);
    return std::move(page->body);
  };
}

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
  return view;
}

DaemonView AskDaemon(const DiagnoseOptions& options, const std::string& boot_id,
                     const HttpFetch& fetch) {
  return ViewDaemon(LiveDaemon(*options.daemon, options.daemon_timeout, fetch), options.daemon_text,
                    boot_id);
}

std::set<std::string> NetdevsWithDaemonLinkFigures(const std::vector<ExposedSample>& metrics) {
  std::set<std::string> netdevs;
  for (const ExposedSample* s : SamplesNamed(metrics, kLinkQualityStateMetric))
    if (!Label(*s, "netdev").empty()) netdevs.insert(Label(*s, "netdev"));
  return netdevs;
}

void TakeDaemonLinkFigures(const DaemonView& daemon, std::vector<LinkQualityEntry>& entries) {
  if (!daemon.usable()) return;
  for (LinkQualityEntry& entry : entries) {
    if (entry.figures != LinkFiguresSource::kNone) continue;
    std::optional<LinkQualityStatus> quality;
    for (const ExposedSample* s : SamplesNamed(daemon.metrics, kLinkQualityStateMetric)) {
      if (Label(*s, "netdev") != entry.netdev || s->value != 1) continue;
      for (LinkQualityState state : kAllLinkQualityStates) {
        if (Label(*s, "state") != LinkQualityStateLabel(state)) continue;
        quality.emplace();
        quality->state = state;
      }
    }
    if (!quality) continue;
    for (const ExposedSample* s : SamplesNamed(daemon.metrics, kPreFecBerMetric))
      if (Label(*s, "netdev") == entry.netdev && std::isfinite(s->value))
        quality->pre_fec_ber = s->value;
    for (const Finding& f : daemon.findings.findings) {
      if (f.subject != entry.netdev || f.check.rfind("link_quality_", 0) != 0) continue;
      const size_t colon = f.message.find(": ");
      quality->reason = colon == std::string::npos ? f.message : f.message.substr(colon + 2);
    }
    entry.quality = std::move(quality);
    entry.figures = LinkFiguresSource::kDaemon;
    entry.no_figures_reason.clear();
    entry.pfc.clear();
    std::map<PfcKey, PfcPriorityStatus> pfc;
    for (const char* name : {kPfcPausedRatioMetric, kPfcStormMetric}) {
      for (const ExposedSample* s : SamplesNamed(daemon.metrics, name)) {
        if (Label(*s, "netdev") != entry.netdev) continue;
        const std::string direction = Label(*s, "direction");
        if (direction != "rx" && direction != "tx") continue;
        PfcKey key{entry.netdev, std::atoi(Label(*s, "priority").c_str()),
                   direction == "tx" ? PauseDirection::kTx : PauseDirection::kRx};
        PfcPriorityStatus& status = pfc[key];
        if (std::string_view(name) == kPfcStormMetric) {
          status.storm = s->value == 1;
        } else if (std::isfinite(s->value)) {
          status.paused_fraction = s->value;
        }
      }
    }
    for (auto& [key, status] : pfc) entry.pfc.emplace_back(key, status);
  }
}

std::map<PortKey, PortTrafficResume> DaemonTrafficView(const std::vector<ExposedSample>& metrics,
                                                       MonoTime now, double now_unix) {
  std::map<PortKey, PortTrafficResume> ports;
  for (const ExposedSample* s : SamplesNamed(metrics, kTrafficStateMetric)) {
    std::optional<PortKey> key = PortOf(*s);
    if (!key || s->value != 1) continue;
    for (TrafficState state : kAllTrafficStates)
      if (Label(*s, "state") == TrafficStateLabel(state)) ports[*key].state = state;
  }
  MonoTime counters_at = now;
  for (const ExposedSample* s : SamplesNamed(metrics, kLastPollTimestampMetric)) {
    const double age = now_unix - s->value;
    if (std::isfinite(age) && age > 0 && age < 3600)
      counters_at = now - std::chrono::duration_cast<Duration>(std::chrono::duration<double>(age));
  }
  for (auto& [key, port] : ports) port.counters_at = counters_at;
  auto each = [&](const char* name, auto&& take) {
    for (const ExposedSample* s : SamplesNamed(metrics, name)) {
      std::optional<PortKey> key = PortOf(*s);
      if (!key) continue;
      auto port = ports.find(*key);
      if (port != ports.end()) take(port->second, s->value);
    }
  };
  each(kTrafficBaselineMetric, [](PortTrafficResume& p, double v) {
    if (std::isfinite(v) && v > 0) p.baseline = v;
  });
  each(kTrafficCollapsedNodeWideMetric,
       [](PortTrafficResume& p, double v) { p.node_wide = v == 1; });
  each(kPortTransmitBytesMetric,
       [](PortTrafficResume& p, double v) { p.transmit_bytes = Count(v); });
  each(kPortReceiveBytesMetric, [](PortTrafficResume& p, double v) { p.receive_bytes = Count(v); });
  return ports;
}

}  // namespace rocewatch
