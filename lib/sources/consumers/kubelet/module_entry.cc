// The kubelet module's only exported symbol (lib/sources/consumers/kubelet_module_abi.h);
// everything else in librocewatch-kubelet.so is hidden (exports.map).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <string>

#include "consumers/kubelet/kubelet_pod_resources_source.h"
#include "consumers/kubelet_module_abi.h"

namespace {

void WriteError(const std::string& reason, char* error, size_t error_bytes) {
  if (error == nullptr || error_bytes == 0) return;
  const size_t length = std::min(reason.size(), error_bytes - 1);
  std::memcpy(error, reason.data(), length);
  error[length] = '\0';
}

}  // namespace

extern "C" __attribute__((visibility("default"))) rocewatch::PodResourcesSource*
rocewatch_kubelet_module_v1(const rocewatch::KubeletModuleAbi* caller_abi, const char* socket_path,
                            int64_t timeout_ms, char* error, size_t error_bytes) {
  const rocewatch::KubeletModuleAbi own;
  if (caller_abi == nullptr || !(*caller_abi == own)) {
    WriteError("the module was built for " + rocewatch::DescribeKubeletModuleAbi(own) +
                   (caller_abi == nullptr
                        ? std::string(", the caller gave none")
                        : ", the binary for " + rocewatch::DescribeKubeletModuleAbi(*caller_abi)),
               error, error_bytes);
    return nullptr;
  }
  if (socket_path == nullptr || timeout_ms <= 0) {
    WriteError("no socket path or no positive deadline", error, error_bytes);
    return nullptr;
  }
  try {
    return new rocewatch::KubeletPodResourcesSource(socket_path,
                                                    std::chrono::milliseconds(timeout_ms));
  } catch (const std::exception& e) {
    WriteError(std::string("cannot construct the kubelet client: ") + e.what(), error, error_bytes);
    return nullptr;
  }
}
