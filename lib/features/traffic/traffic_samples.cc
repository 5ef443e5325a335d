#include "traffic/traffic_samples.h"

namespace rocewatch {

std::optional<bool> PortCarrier(const Port& port,
                                const std::map<std::string, NetdevState>& netdevs) {
  auto live = netdevs.find(PrimaryNetdev(port));
  if (live != netdevs.end()) return live->second.carrier;
  if (port.state == "DOWN") return false;
  if (!port.phys_state.empty() && port.phys_state != "LinkUp") return false;
  return std::nullopt;
}

std::vector<PortTrafficSample> TrafficSamplesFrom(
    const NodeSnapshot& snapshot, const std::map<std::string, NetdevState>& netdevs) {
  std::vector<PortTrafficSample> samples;
  for (const Device& device : snapshot.devices) {
    for (const Port& port : device.ports) {
      PortTrafficSample sample;
      sample.key = {device.name, port.number};
      sample.transmit_bytes = port.counters.transmit_bytes;
      sample.receive_bytes = port.counters.receive_bytes;
      sample.hw_counters = &port.counters.hw_counters;
      sample.carrier = PortCarrier(port, netdevs);
      samples.push_back(std::move(sample));
    }
  }
  return samples;
}

}  // namespace rocewatch
