#include "job_awareness/consumer_merge.h"

#include <algorithm>

#include "core/text.h"

namespace rocewatch {
namespace {

std::string PidList(const std::vector<int>& pids, size_t limit = 8) {
  std::string text;
  for (size_t i = 0; i < pids.size() && i < limit; ++i)
    text += (i ? ", " : "") + std::to_string(pids[i]);
  if (pids.size() > limit) text += ", ...";
  return text;
}

void ProcfsBlindSpots(const ProcfsConsumerScan& scan, std::vector<std::string>& out) {
  if (!scan.procfs_readable) {
    out.push_back("procfs: the process list could not be read");
    return;
  }
  if (!scan.host_namespace)
    out.push_back(
        "procfs: not the host's process namespace (pid 2 is not kthreadd): processes of other "
        "containers are not seen (in a pod: hostPID, or the host's /proc under --host-root)");
  if (!scan.unreadable_pids.empty())
    out.push_back("procfs: descriptors of " + std::to_string(scan.unreadable_pids.size()) +
                  " processes unreadable (pids " + PidList(scan.unreadable_pids) +
                  "): whether they hold a device is unknown (needs root or CAP_SYS_PTRACE)");
  if (scan.environ_unreadable > 0)
    out.push_back("procfs: environ of " + std::to_string(scan.environ_unreadable) +
                  " consumers unreadable: their job and pod names are unknown");
  if (scan.maps_unreadable > 0)
    out.push_back("procfs: maps of " + std::to_string(scan.maps_unreadable) +
                  " consumers unreadable: their NCCL version is unknown");
  if (scan.malformed_cgroups > 0)
    out.push_back("procfs: cgroup of " + std::to_string(scan.malformed_cgroups) +
                  " consumers has unparsable lines: their pod or job may be missing");
}

// The kubelet's entry for a procfs consumer's pod, if listed.
const PodDeviceAllocation* PodOf(const RailConsumer& consumer, const KubeletAnswer& kubelet) {
  if (consumer.pod.empty()) return nullptr;
  for (const PodDeviceAllocation& allocation : kubelet.allocations)
    if (allocation.pod == consumer.pod) return &allocation;
  return nullptr;
}

bool SamePod(const RailConsumer& a, const RailConsumer& b) {
  return !a.pod.empty() && a.pod == b.pod &&
         (a.pod_namespace.empty() || b.pod_namespace.empty() || a.pod_namespace == b.pod_namespace);
}

}  // namespace

std::map<std::string, std::string> PciAddressesOfDevices(const FileSystem& fs,
                                                         const HostPaths& paths,
                                                         const std::vector<std::string>& devices) {
  // <sysfs>/class/infiniband/<dev>/device -> ../../../0000:3b:00.2; where `device` is no link (a
  // support bundle keeps it as a directory), PCI_SLOT_NAME= of its uevent says the same.
  std::map<std::string, std::string> pci;
  for (const std::string& device : devices) {
    const std::string parent = JoinPath(JoinPath(paths.InfinibandClassDir(), device), "device");
    if (StatusOr<std::string> link = fs.ReadLink(parent); link.ok()) {
      size_t slash = link->rfind('/');
      pci[link->substr(slash == std::string::npos ? 0 : slash + 1)] = device;
      continue;
    }
    StatusOr<std::string> uevent = fs.ReadFile(JoinPath(parent, "uevent"), 4096);
    if (!uevent.ok()) continue;
    constexpr std::string_view kSlot = "PCI_SLOT_NAME=";
    for (const std::string& line : SplitFields(*uevent, "\n"))
      if (line.rfind(kSlot, 0) == 0 && line.size() > kSlot.size())
        pci[line.substr(kSlot.size())] = device;
  }
  return pci;
}

KubeletAnswer KubeletAnswerOf(const PodResourcesSource& source,
                              StatusOr<std::vector<PodDeviceAllocation>> answer,
                              const FileSystem& fs, const HostPaths& paths,
                              const std::vector<std::string>& devices) {
  KubeletAnswer merged;
  merged.source = source.Describe();
  if (answer.ok()) {
    merged.allocations = std::move(answer).value();
    merged.pci_devices = PciAddressesOfDevices(fs, paths, devices);
  } else {
    merged.status = answer.status();
  }
  return merged;
}

ConsumerObservation MergeConsumers(const std::vector<std::string>& devices,
                                   const ProcfsConsumerScan* procfs, const KubeletAnswer* kubelet,
                                   const std::vector<std::string>& not_in_use) {
  ConsumerObservation observation;
  observation.blind_spots = not_in_use;
  const bool kubelet_ok = kubelet != nullptr && kubelet->status.ok();
  PodRdmaHoldings pods;
  if (procfs != nullptr) {
    if (procfs->procfs_readable) observation.sources.push_back("procfs");
    ProcfsBlindSpots(*procfs, observation.blind_spots);
  }
  if (kubelet != nullptr) {
    if (kubelet_ok) {
      observation.sources.push_back("kubelet");
      pods = ClassifyPodResources(kubelet->allocations, kubelet->pci_devices);
    } else {
      observation.blind_spots.push_back("kubelet: " + kubelet->status.message());
    }
  }
  const bool procfs_complete = procfs != nullptr && procfs->Complete();

  for (const std::string& device : devices) {
    ConsumerObservation::DeviceView& view = observation.devices[device];
    if (procfs != nullptr) {
      if (auto found = procfs->consumers.find(device); found != procfs->consumers.end())
        view.consumers = found->second;
    }
    if (kubelet_ok) {
      for (RailConsumer& consumer : view.consumers) {
        if (const PodDeviceAllocation* pod = PodOf(consumer, *kubelet)) {
          consumer.pod_namespace = pod->pod_namespace;
          // The container's name replaces its id where the pod lists only one container.
          bool one_container =
              std::all_of(kubelet->allocations.begin(), kubelet->allocations.end(),
                          [&](const PodDeviceAllocation& a) {
                            return a.pod != pod->pod || a.container == pod->container;
                          });
          if (one_container) consumer.container = pod->container;
        }
      }
      if (auto found = pods.by_device.find(device); found != pods.by_device.end()) {
        for (const RailConsumer& pod : found->second) {
          bool named = std::any_of(view.consumers.begin(), view.consumers.end(),
                                   [&](const RailConsumer& c) { return SamePod(c, pod); });
          if (!named) view.consumers.push_back(pod);
        }
      }
    }
    if (!view.consumers.empty()) {
      view.knowledge = ConsumerKnowledge::kPresent;
    } else if (procfs_complete) {
      view.knowledge = ConsumerKnowledge::kNone;
    } else if (kubelet_ok) {
      view.knowledge =
          pods.node_wide.empty() ? ConsumerKnowledge::kNone : ConsumerKnowledge::kPresent;
      if (!pods.node_wide.empty()) view.consumers = pods.node_wide;
    }
  }
  return observation;
}

}  // namespace rocewatch
