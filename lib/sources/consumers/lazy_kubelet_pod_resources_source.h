#pragma once
// The daemon's kubelet source: a PodResourcesSource that asks the PodResourcesModule for the real
// client (the gRPC one, in the kubelet module) only once the pod-resources socket exists. Until
// then every call answers without loading anything, so a node without a kubelet never maps gRPC:
// NotFound ("not a Kubernetes node, or the socket is not mounted", a state) at the default path,
// Unavailable (a failed read, logged and a read_failed warning: the operator named a socket that
// is not there) at a path the operator configured. Once created, the client
// is kept and answers every later call (its own NotFound if the socket goes away again).
//
// A module that cannot be had (missing, broken, another ABI) makes every call answer its error
// (Unavailable, one line naming the module): the consumer tracking goes on from procfs.
//
// Threading: one thread at a time. Lifetime: the module is shared with the host environment.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "consumers/consumer_options.h"
#include "consumers/pod_resources.h"
#include "consumers/pod_resources_module.h"
#include "os/host_paths.h"

namespace rocewatch {

class LazyKubeletPodResourcesSource final : public PodResourcesSource {
 public:
  // `configured`: the path was given by the operator (--kubelet-socket), not the default.
  LazyKubeletPodResourcesSource(std::string socket_path, Duration timeout,
                                std::shared_ptr<PodResourcesModule> module,
                                bool configured = false);

  std::string Describe() const override { return "unix://" + socket_path_; }
  void Request() override;
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> TakeAnswer() override;
  StatusOr<std::vector<PodDeviceAllocation>> ListNow() override;

  // True once the real client was created (the module loaded).
  bool client_created() const { return client_ != nullptr; }

 private:
  // The client, created now if the socket exists; otherwise the answer to give instead.
  std::optional<Status> EnsureClient();

  const std::string socket_path_;
  const Duration timeout_;
  const std::shared_ptr<PodResourcesModule> module_;
  const bool configured_;
  std::unique_ptr<PodResourcesSource> client_;
  std::optional<Status> module_error_;  // the module could not be had: the answer from now on
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> ready_;  // answered without a client
};

// The daemon's source: options.kubelet_socket ("" = <host-root>/var/lib/kubelet/pod-resources/
// kubelet.sock), null for "none".
std::unique_ptr<PodResourcesSource> KubeletPodResourcesSourceFor(
    const HostPaths& paths, const ConsumerOptions& options,
    std::shared_ptr<PodResourcesModule> module);

}  // namespace rocewatch
