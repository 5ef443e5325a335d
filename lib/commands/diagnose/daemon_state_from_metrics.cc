#include "diagnose/daemon_state_from_metrics.h"

#include <cmath>
#include <map>

#include "daemon/daemon_metric_names.h"
#include "inventory/inventory_metric_names.h"
#include "link_quality/link_quality_metric_names.h"
#include "model/port_key.h"
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

void TakePorts(const std::vector<ExposedSample>& metrics, DaemonState& out) {
  std::map<PortKey, DaemonPortState> ports;
  for (const ExposedSample* s : SamplesNamed(metrics, kTrafficStateMetric)) {
    std::optional<PortKey> key = PortOf(*s);
    if (!key || s->value != 1) continue;
    for (TrafficState state : kAllTrafficStates)
      if (Label(*s, "state") == TrafficStateLabel(state)) ports[*key].traffic_state = state;
  }
  auto each = [&](const char* name, auto&& take) {
    for (const ExposedSample* s : SamplesNamed(metrics, name)) {
      std::optional<PortKey> key = PortOf(*s);
      if (!key) continue;
      auto port = ports.find(*key);
      if (port != ports.end()) take(port->second, s->value);
    }
  };
  each(kTrafficBaselineMetric, [](DaemonPortState& p, double v) {
    if (std::isfinite(v) && v > 0) p.baseline = v;
  });
  each(kTrafficCollapsedNodeWideMetric, [](DaemonPortState& p, double v) { p.node_wide = v == 1; });
  each(kPortTransmitBytesMetric, [](DaemonPortState& p, double v) { p.transmit_bytes = Count(v); });
  each(kPortReceiveBytesMetric, [](DaemonPortState& p, double v) { p.receive_bytes = Count(v); });
  for (auto& [key, port] : ports) {
    port.device = key.device;
    port.port = key.port;
    out.ports.push_back(std::move(port));
  }
}

void TakeNetdevs(const std::vector<ExposedSample>& metrics, DaemonState& out) {
  std::map<std::string, DaemonNetdevState> netdevs;
  for (const ExposedSample* s : SamplesNamed(metrics, kLinkQualityStateMetric)) {
    const std::string netdev = Label(*s, "netdev");
    if (netdev.empty()) continue;
    DaemonNetdevState& entry = netdevs[netdev];
    if (s->value == 1) entry.link_quality = Label(*s, "state");
  }
  for (const ExposedSample* s : SamplesNamed(metrics, kPreFecBerMetric)) {
    auto it = netdevs.find(Label(*s, "netdev"));
    if (it != netdevs.end() && std::isfinite(s->value)) it->second.pre_fec_ber = s->value;
  }
  std::map<std::tuple<std::string, int, bool>, DaemonPfcState> pfc;
  for (const char* name : {kPfcPausedRatioMetric, kPfcStormMetric}) {
    for (const ExposedSample* s : SamplesNamed(metrics, name)) {
      const std::string direction = Label(*s, "direction");
      if (!netdevs.count(Label(*s, "netdev")) || (direction != "rx" && direction != "tx")) continue;
      const int priority = std::atoi(Label(*s, "priority").c_str());
      DaemonPfcState& status = pfc[{Label(*s, "netdev"), priority, direction == "tx"}];
      status.priority = priority;
      status.transmit = direction == "tx";
      if (std::string_view(name) == kPfcStormMetric) {
        status.storm = s->value == 1;
      } else if (std::isfinite(s->value)) {
        status.paused_fraction = s->value;
      }
    }
  }
  for (auto& [key, status] : pfc) netdevs[std::get<0>(key)].pfc.push_back(status);
  for (auto& [name, netdev] : netdevs) {
    netdev.netdev = name;
    out.netdevs.push_back(std::move(netdev));
  }
}

}  // namespace

DaemonState DaemonStateFromMetrics(const std::vector<ExposedSample>& metrics) {
  DaemonState out;
  for (const ExposedSample* s : SamplesNamed(metrics, kLastPollTimestampMetric))
    if (std::isfinite(s->value)) out.last_poll_unix = s->value;
  TakePorts(metrics, out);
  TakeNetdevs(metrics, out);
  return out;
}

}  // namespace rocewatch
