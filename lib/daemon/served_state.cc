#include "daemon/served_state.h"

#include <map>

namespace rocewatch {
namespace {

void AddPorts(const ServedStateInputs& in, DaemonState& out) {
  std::map<PortKey, const PortCounters*> counters;
  if (in.snapshot != nullptr)
    for (const Device& device : in.snapshot->devices)
      for (const Port& port : device.ports) counters[{device.name, port.number}] = &port.counters;
  for (const auto& [key, status] : in.traffic->detector().ports()) {
    DaemonPortState port;
    port.device = key.device;
    port.port = key.port;
    port.traffic_state = status.state;
    port.baseline = status.baseline;
    port.node_wide = status.state == TrafficState::kCollapsed && status.node_wide;
    auto it = counters.find(key);
    if (it != counters.end()) {
      port.transmit_bytes = it->second->transmit_bytes;
      port.receive_bytes = it->second->receive_bytes;
    }
    out.ports.push_back(std::move(port));
  }
}

void AddNetdevs(const EthtoolComponent& ethtool, const ServedStateInputs& in, DaemonState& out) {
  std::map<std::string, DaemonNetdevState> netdevs;
  for (const auto& [name, status] : ethtool.link_quality().netdevs()) {
    DaemonNetdevState& netdev = netdevs[name];
    netdev.link_quality = LinkQualityStateLabel(status.state);
    netdev.pre_fec_ber = status.pre_fec_ber;
  }
  for (const auto& [key, status] : ethtool.pfc().priorities()) {
    auto it = netdevs.find(key.netdev);
    if (it == netdevs.end()) continue;  // no verdict: diagnose takes no figures of it
    it->second.pfc.push_back(
        {key.priority, key.direction == PauseDirection::kTx, status.paused_fraction, status.storm});
  }
  if (ethtool.optics_interval() > Duration::zero()) {
    for (const auto& [name, read_at] : ethtool.module_reads())
      if (auto it = netdevs.find(name); it != netdevs.end())
        it->second.optics_read_at_unix = in.now_unix - ToSeconds(in.now - read_at);
  }
  for (auto& [name, netdev] : netdevs) {
    netdev.netdev = name;
    out.netdevs.push_back(std::move(netdev));
  }
}

}  // namespace

DaemonState BuildServedState(const ServedStateInputs& in) {
  DaemonState out;
  out.boot_id = in.boot_id;
  out.generated_at_unix = in.now_unix;
  out.last_poll_unix = in.last_poll_unix;
  if (in.traffic != nullptr) AddPorts(in, out);
  if (in.ethtool != nullptr) AddNetdevs(*in.ethtool, in, out);
  out.optics_interval_seconds = in.ethtool ? ToSeconds(in.ethtool->optics_interval()) : 0;
  return out;
}

}  // namespace rocewatch
