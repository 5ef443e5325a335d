#pragma once
// What the kubelet's pod-resources API (gRPC v1.PodResourcesLister/List on
// /var/lib/kubelet/pod-resources/kubelet.sock) says the pods of this node hold, and how that maps
// to RDMA devices. The interface is asynchronous so that the daemon's event loop never waits on
// the kubelet: Request() starts a call, TakeAnswer() collects it once it completed.
//
// Mapping (ClassifyPodResources): a device id that is the PCI address of an RDMA device (SR-IOV
// VFs from the SR-IOV network device plugin) names that device; any other resource whose name
// says RDMA or GPU (rdma/hca_shared_devices_a from the RDMA shared device plugin, nvidia.com/gpu,
// amd.com/gpu) tells only that a job holds the node, not which rail.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "model/rail_consumer.h"

namespace rocewatch {

// One container's allocation of one resource.
struct PodDeviceAllocation {
  std::string pod;
  std::string pod_namespace;
  std::string container;
  std::string resource_name;            // "rdma/hca_shared_devices_a", "nvidia.com/gpu"
  std::vector<std::string> device_ids;  // device plugin ids: PCI addresses, GPU UUIDs, ...
  bool operator==(const PodDeviceAllocation&) const = default;
};

class PodResourcesSource {
 public:
  virtual ~PodResourcesSource() = default;
  // Where the answers come from, for people: "unix:///var/lib/kubelet/pod-resources/kubelet.sock".
  virtual std::string Describe() const = 0;
  // Starts a List call unless one is in flight. Never blocks.
  virtual void Request() = 0;
  // The result of the call that completed since the last TakeAnswer (every call completes within
  // its deadline: answer, error or DEADLINE_EXCEEDED); nullopt while one is in flight or none was
  // requested. Errors: Unavailable (no socket, refused, not gRPC), IoError (deadline, garbage).
  virtual std::optional<StatusOr<std::vector<PodDeviceAllocation>>> TakeAnswer() = 0;
  // Requests a call and waits for it (at most the call's deadline): for one-shot use (diagnose).
  virtual StatusOr<std::vector<PodDeviceAllocation>> ListNow() = 0;
};

// The pods' holdings: per RDMA device, and node-wide (a resource not tied to a device).
struct PodRdmaHoldings {
  std::map<std::string, std::vector<RailConsumer>> by_device;
  std::vector<RailConsumer> node_wide;
};

// `pci_devices`: PCI address ("0000:3b:00.2") -> RDMA device name, from sysfs. Containers without
// an RDMA or GPU resource are not consumers. Each pod/container appears once per device.
PodRdmaHoldings ClassifyPodResources(const std::vector<PodDeviceAllocation>& allocations,
                                     const std::map<std::string, std::string>& pci_devices);

}  // namespace rocewatch
