#include "consumers/pod_resources.h"

#include <algorithm>

#include "core/text.h"

namespace rocewatch {
namespace {

// Resource names that mean "uses RDMA or GPUs" without naming a device.
bool IsRdmaOrGpuResource(const std::string& resource_name) {
  const std::string name = ToLower(resource_name);
  for (const char* word : {"rdma", "hca", "roce", "infiniband", "sriov", "gpu"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

void AddOnce(std::vector<RailConsumer>& consumers, const RailConsumer& consumer) {
  if (std::find(consumers.begin(), consumers.end(), consumer) == consumers.end())
    consumers.push_back(consumer);
}

}  // namespace

PodRdmaHoldings ClassifyPodResources(const std::vector<PodDeviceAllocation>& allocations,
                                     const std::map<std::string, std::string>& pci_devices) {
  PodRdmaHoldings holdings;
  for (const PodDeviceAllocation& allocation : allocations) {
    RailConsumer consumer;
    consumer.pod = allocation.pod;
    consumer.pod_namespace = allocation.pod_namespace;
    consumer.container = allocation.container;
    bool mapped = false;
    for (const std::string& id : allocation.device_ids) {
      auto device = pci_devices.find(ToLower(id));
      if (device == pci_devices.end()) continue;
      AddOnce(holdings.by_device[device->second], consumer);
      mapped = true;
    }
    if (!mapped && IsRdmaOrGpuResource(allocation.resource_name))
      AddOnce(holdings.node_wide, consumer);
  }
  return holdings;
}

}  // namespace rocewatch
