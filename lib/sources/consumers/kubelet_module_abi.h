#pragma once
// The boundary between the binary and the kubelet module (librocewatch-kubelet.so, built from
// lib/sources/consumers/kubelet/): the gRPC client of the kubelet's pod-resources API lives in that
// module so that a node without a kubelet never maps gRPC, protobuf and absl. The binary loads it
// with dlopen() the first time the socket exists (DlopenKubeletModule) and calls one C entry
// point, which constructs the client as a PodResourcesSource.
//
// What crosses the boundary are C++ objects of this source tree (PodResourcesSource, Status,
// StatusOr, PodDeviceAllocation, std::string, std::vector), so both sides must be built from the
// same headers with the same compiler and standard library: the module refuses a caller whose
// KubeletModuleAbi differs from its own. Bump kKubeletModuleAbiVersion when any of those types
// changes in a way sizeof does not show (a reordered member, a new virtual function).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "consumers/pod_resources.h"

namespace rocewatch {

inline constexpr uint32_t kKubeletModuleAbiVersion = 1;

// The file name of the module, and where it is looked for after the directory of the executable
// (relative to it): `make install` puts it in <prefix>/lib/rocewatch/ (CMakeLists.txt).
inline constexpr char kKubeletModuleFileName[] = "librocewatch-kubelet.so";
inline constexpr char kKubeletModuleInstallDirFromBinary[] = "../lib/rocewatch";

struct KubeletModuleAbi {
  uint32_t version = kKubeletModuleAbiVersion;
  uint32_t status_bytes = sizeof(Status);
  uint32_t allocation_bytes = sizeof(PodDeviceAllocation);
  uint32_t answer_bytes = sizeof(StatusOr<std::vector<PodDeviceAllocation>>);
  uint32_t source_bytes = sizeof(PodResourcesSource);
  uint32_t string_bytes = sizeof(std::string);
  bool operator==(const KubeletModuleAbi&) const = default;
};

// "ABI 1 (Status 48, PodDeviceAllocation 160, answer 56, string 32 bytes)".
inline std::string DescribeKubeletModuleAbi(const KubeletModuleAbi& abi) {
  return "ABI " + std::to_string(abi.version) + " (Status " + std::to_string(abi.status_bytes) +
         ", PodDeviceAllocation " + std::to_string(abi.allocation_bytes) + ", answer " +
         std::to_string(abi.answer_bytes) + ", source " + std::to_string(abi.source_bytes) +
         ", string " + std::to_string(abi.string_bytes) + " bytes)";
}

// The entry point's symbol; "_v1" versions its C signature, KubeletModuleAbi the C++ types.
inline constexpr char kKubeletModuleEntryPoint[] = "rocewatch_kubelet_module_v1";

// Constructs a KubeletPodResourcesSource on `socket_path` with a call deadline of
// `timeout_ms`, owned by the caller (delete it through PodResourcesSource). Returns null and
// writes a one-line, NUL-terminated reason into `error` (at most error_bytes, truncated) when
// `*caller_abi` differs from the module's or the construction fails. Never throws.
using KubeletModuleEntry = PodResourcesSource* (*)(const KubeletModuleAbi* caller_abi,
                                                   const char* socket_path, int64_t timeout_ms,
                                                   char* error, size_t error_bytes);

}  // namespace rocewatch
