#pragma once
// Merges what the consumer sources saw into one ConsumerObservation: per device, its consumers
// and whether their absence is known. Pure.
//
//   present: procfs saw a process holding the device, or the kubelet maps a pod to it
//   none:    procfs saw every process of the node and none holds it; or, where procfs cannot
//            tell, the kubelet answered and no pod of the node holds RDMA or GPU resources
//   present: (procfs cannot tell) the kubelet says a pod holds RDMA or GPU resources without
//            naming the device: a job holds the node
//   unknown: otherwise
// A procfs consumer inside a pod the kubelet lists gets the pod's namespace and container name.

#include <optional>
#include <string>
#include <vector>

#include "consumers/pod_resources.h"
#include "consumers/procfs_consumer_scanner.h"
#include "model/rail_consumer.h"

namespace rocewatch {

struct KubeletAnswer {
  std::string source;  // PodResourcesSource::Describe()
  Status status;       // of the last call
  std::vector<PodDeviceAllocation> allocations;
  std::map<std::string, std::string> pci_devices;  // PCI address -> RDMA device
};

// The answer of a kubelet call, ready to merge: `pci_devices` read from sysfs for a successful one.
KubeletAnswer KubeletAnswerOf(const PodResourcesSource& source,
                              StatusOr<std::vector<PodDeviceAllocation>> answer,
                              const FileSystem& fs, const HostPaths& paths,
                              const std::vector<std::string>& devices);

// PCI address ("0000:3b:00.2") of each device, from <sysfs>/class/infiniband/<device>/device.
std::map<std::string, std::string> PciAddressesOfDevices(const FileSystem& fs,
                                                         const HostPaths& paths,
                                                         const std::vector<std::string>& devices);

// `procfs` and `kubelet` may be null (source not in use; `not_in_use` says why, one line each).
ConsumerObservation MergeConsumers(const std::vector<std::string>& devices,
                                   const ProcfsConsumerScan* procfs, const KubeletAnswer* kubelet,
                                   const std::vector<std::string>& not_in_use = {});

}  // namespace rocewatch
