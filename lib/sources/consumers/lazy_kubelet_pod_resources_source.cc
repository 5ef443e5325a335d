#include "consumers/lazy_kubelet_pod_resources_source.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "os/file_system.h"

namespace rocewatch {

LazyKubeletPodResourcesSource::LazyKubeletPodResourcesSource(
    std::string socket_path, Duration timeout, std::shared_ptr<PodResourcesModule> module,
    bool configured)
    : socket_path_(std::move(socket_path)),
      timeout_(timeout),
      module_(std::move(module)),
      configured_(configured) {}

std::optional<Status> LazyKubeletPodResourcesSource::EnsureClient() {
  if (client_) return std::nullopt;
  if (module_error_) return module_error_;
  struct stat st;
  if (::stat(socket_path_.c_str(), &st) != 0) {
    if (configured_)
      return Status::Unavailable("no pod-resources socket at " + socket_path_ +
                                 ", the path --kubelet-socket names (" + std::strerror(errno) +
                                 "): is it mounted into the rocewatch pod?");
    return Status::NotFound("no pod-resources socket at " + socket_path_ +
                            " (not a Kubernetes node, or the socket is not mounted)");
  }
  StatusOr<std::unique_ptr<PodResourcesSource>> client = module_->NewSource(socket_path_, timeout_);
  if (!client.ok()) {
    module_error_ = client.status();
    return module_error_;
  }
  client_ = std::move(*client);
  return std::nullopt;
}

void LazyKubeletPodResourcesSource::Request() {
  if (ready_) return;
  if (std::optional<Status> instead = EnsureClient()) {
    ready_ = *instead;
    return;
  }
  client_->Request();
}

std::optional<StatusOr<std::vector<PodDeviceAllocation>>>
LazyKubeletPodResourcesSource::TakeAnswer() {
  if (ready_) return std::exchange(ready_, std::nullopt);
  if (!client_) return std::nullopt;
  return client_->TakeAnswer();
}

StatusOr<std::vector<PodDeviceAllocation>> LazyKubeletPodResourcesSource::ListNow() {
  if (ready_) return *std::exchange(ready_, std::nullopt);
  if (std::optional<Status> instead = EnsureClient()) return *instead;
  return client_->ListNow();
}

std::unique_ptr<PodResourcesSource> KubeletPodResourcesSourceFor(
    const HostPaths& paths, const ConsumerOptions& options,
    std::shared_ptr<PodResourcesModule> module) {
  if (options.kubelet_socket == "none") return nullptr;
  const bool configured = !options.kubelet_socket.empty();
  std::string socket =
      configured ? options.kubelet_socket
                 : JoinPath(paths.host_root, "var/lib/kubelet/pod-resources/kubelet.sock");
  return std::make_unique<LazyKubeletPodResourcesSource>(std::move(socket), options.kubelet_timeout,
                                                         std::move(module), configured);
}

}  // namespace rocewatch
