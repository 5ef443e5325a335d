#pragma once
// The kubelet's pod-resources answer as a recording: what `rocewatch collect` writes to
// <bundle>/rocewatch/kubelet/pod-resources.json and what diagnose and run read in place of the
// kubelet socket when it exists under --host-root (docs/bundle.md). The format is the protobuf
// JSON mapping of v1 ListPodResourcesResponse, as `grpcurl` prints it, so an operator can make one
// with standard tools:
//   {"podResources": [{"name": "trainer-0", "namespace": "ml",
//                      "containers": [{"name": "main", "devices": [
//                          {"resourceName": "rdma/hca_shared_devices_a", "deviceIds": ["1"]}]}]}]}
// plus rocewatch's own keys: "source" (where the answer came from, for people) and, for a call
// that failed, "error": {"code": "<StatusCodeName>", "message": "..."} instead of podResources.
// Fields the kubelet adds that rocewatch does not use (cpuIds, memory, topology) are ignored.
// Pure.

#include <string>
#include <string_view>
#include <vector>

#include "consumers/pod_resources.h"
#include "core/status.h"

namespace rocewatch {

// Where the recording sits under a host root (or a bundle).
inline constexpr std::string_view kPodResourcesRecordingPath =
    "rocewatch/kubelet/pod-resources.json";

std::string FormatPodResourcesRecording(const std::string& source,
                                        const StatusOr<std::vector<PodDeviceAllocation>>& answer);

// The recorded answer: the allocations, or the recorded failure with its code and message.
// Errors: Corrupt for a file that is not such a recording.
StatusOr<std::vector<PodDeviceAllocation>> ParsePodResourcesRecording(std::string_view text);

}  // namespace rocewatch
