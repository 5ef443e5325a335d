#include "diagnose/rail_down_checks.h"

#include <optional>

#include "model/check_policy.h"
#include "traffic/traffic_samples.h"

namespace rocewatch {

std::vector<Finding> CheckRailsDownUnderJob(const NodeSnapshot& snapshot,
                                            const std::map<std::string, NetdevState>& netdevs,
                                            const ConsumerObservation& consumers) {
  std::vector<Finding> findings;
  for (const Device& device : snapshot.devices) {
    if (consumers.KnowledgeOf(device.name) != ConsumerKnowledge::kPresent) continue;
    for (const Port& port : device.ports) {
      const std::optional<bool> carrier = PortCarrier(port, netdevs);
      if (!carrier.has_value() || *carrier) continue;
      const std::string netdev = PrimaryNetdev(port);
      const std::string down =
          netdevs.count(netdev) != 0
              ? "netdev " + netdev + " has no carrier"
              : "port state " + (port.state.empty() ? std::string("unknown") : port.state) +
                    ", phys_state " + (port.phys_state.empty() ? "unknown" : port.phys_state);
      findings.push_back(
          {SeverityOf("rail_down_under_job"), "rail_down_under_job",
           device.name + "/" + std::to_string(port.number),
           "the link is down (" + down + ") while a job holds the device (" +
               consumers.DescribeConsumers(device.name) +
               "): its collectives over this rail stall or fail",
           "Drain the node and restart the job on healthy nodes (NCCL does not move a "
           "communicator to the remaining rails), then repair the link: admin state, cable, "
           "optics, the switch port (link_down_reason, when present, says why it is down)."});
    }
  }
  return findings;
}

}  // namespace rocewatch
