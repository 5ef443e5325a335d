#pragma once
// PodResourcesSource from a recording (consumers/pod_resources_recording.h) under the host root:
// a support bundle's kubelet answer, read again at every call so that a rewritten recording
// drives the daemon as the kubelet would. A recording that cannot be read or parsed is an
// IoError naming the file (counted like a failed kubelet call).
//
// Threading: one thread at a time. Lifetime: fs outlives the source.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "consumers/consumer_options.h"
#include "consumers/pod_resources.h"
#include "consumers/pod_resources_module.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

class RecordedPodResourcesSource final : public PodResourcesSource {
 public:
  RecordedPodResourcesSource(const FileSystem& fs, std::string path);

  std::string Describe() const override { return "recording " + path_; }
  void Request() override;
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> TakeAnswer() override;
  StatusOr<std::vector<PodDeviceAllocation>> ListNow() override;

 private:
  const FileSystem& fs_;
  const std::string path_;
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> ready_;
};

// The pod-resources source of diagnose and run: null for --kubelet-socket none; the recording
// when one exists under the host root and no socket was named; otherwise the kubelet's socket
// through `module`, loaded once the socket exists (KubeletPodResourcesSourceFor).
std::unique_ptr<PodResourcesSource> PodResourcesSourceFor(
    const FileSystem& fs, const HostPaths& paths, const ConsumerOptions& options,
    std::shared_ptr<PodResourcesModule> module);

}  // namespace rocewatch
