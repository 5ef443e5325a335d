#pragma once
// Who uses the RDMA devices of the node: the processes (and the pods and batch jobs they belong
// to) that hold each device, and how much of that the sources could see. Plain values, filled by
// the consumer sources (consumers/procfs_consumer_scanner.h, consumers/pod_resources.h) and merged
// by MergeConsumers (job_awareness/consumer_merge.h); read by the traffic detector, the GID drift
// findings, the exporter and the diagnose report.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rocewatch {

// One consumer of a device. Every field may be unknown (empty / nullopt): the exporter writes an
// unknown label as "".
struct RailConsumer {
  int pid = 0;  // 0 for a pod the kubelet names without a process seen in procfs
  std::string comm;
  std::string pod;            // pod name (kubelet, or the process's HOSTNAME inside a pod)
  std::string pod_namespace;  // Kubernetes namespace (kubelet)
  std::string pod_uid;        // from the cgroup path
  std::string container;      // container name (kubelet) or the first 12 digits of its id (cgroup)
  std::string job;            // batch job id: SLURM_JOB_ID, or the slurm cgroup path
  std::string nccl_version;   // "2.21.5"; empty when no NCCL was found or its version is unknown
  // NCCL_IB_GID_INDEX as the process was started with it (nullopt: unset or environ unreadable).
  std::optional<long long> nccl_gid_index;

  // "pod ml/trainer-0, job 1234, pid 4100 (python3), NCCL 2.21.5": the known parts.
  std::string Describe() const;
  bool operator==(const RailConsumer&) const = default;
};

// What is known about the consumers of one device.
enum class ConsumerKnowledge {
  kUnknown,  // no source could tell (a process's descriptors unreadable, no source at all)
  kNone,     // a source that sees every candidate says nobody holds the device
  kPresent,  // at least one consumer holds it (or a job holds the node, where only that is known)
};
const char* ConsumerKnowledgeLabel(ConsumerKnowledge knowledge);  // "unknown", "none", "present"

// The consumers of every device, and what the sources could not see.
struct ConsumerObservation {
  struct DeviceView {
    ConsumerKnowledge knowledge = ConsumerKnowledge::kUnknown;
    std::vector<RailConsumer> consumers;  // ascending pid, then pod
  };
  std::map<std::string, DeviceView> devices;  // every RDMA device of the node, by name
  // The sources that answered ("procfs", "kubelet"), and one line per thing a source could not
  // see ("procfs: descriptors of 3 processes unreadable (permission denied)").
  std::vector<std::string> sources;
  std::vector<std::string> blind_spots;

  // kUnknown for a device not listed.
  ConsumerKnowledge KnowledgeOf(const std::string& device) const;
  // Consumers of the device; empty for a device not listed.
  const std::vector<RailConsumer>& ConsumersOf(const std::string& device) const;
  // "pod ml/trainer-0 (job 1234), pid 977 (ib_write_bw)" for a device, at most `limit` names;
  // "none" or "unknown" without consumers.
  std::string DescribeConsumers(const std::string& device, size_t limit = 4) const;
};

}  // namespace rocewatch
