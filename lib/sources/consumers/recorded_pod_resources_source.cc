#include "consumers/recorded_pod_resources_source.h"

#include <utility>

#include "consumers/lazy_kubelet_pod_resources_source.h"
#include "consumers/pod_resources_recording.h"

namespace rocewatch {
namespace {

// As much as the kubelet may answer (kubelet/kubelet_pod_resources_source.cc).
constexpr size_t kMaxRecordingBytes = 16 * 1024 * 1024;

}  // namespace

RecordedPodResourcesSource::RecordedPodResourcesSource(const FileSystem& fs, std::string path)
    : fs_(fs), path_(std::move(path)) {}

void RecordedPodResourcesSource::Request() {
  if (!ready_) ready_ = ListNow();
}

std::optional<StatusOr<std::vector<PodDeviceAllocation>>> RecordedPodResourcesSource::TakeAnswer() {
  return std::exchange(ready_, std::nullopt);
}

StatusOr<std::vector<PodDeviceAllocation>> RecordedPodResourcesSource::ListNow() {
  StatusOr<std::string> text = fs_.ReadFile(path_, kMaxRecordingBytes);
  if (!text.ok())
    return Status::IoError("kubelet recording " + path_ + ": " + text.status().message());
  StatusOr<std::vector<PodDeviceAllocation>> answer = ParsePodResourcesRecording(*text);
  if (!answer.ok() && answer.status().code() == StatusCode::kCorrupt)
    return Status::IoError("kubelet recording " + path_ +
                           " is unparsable: " + answer.status().message());
  return answer;
}

std::unique_ptr<PodResourcesSource> PodResourcesSourceFor(
    const FileSystem& fs, const HostPaths& paths, const ConsumerOptions& options,
    std::shared_ptr<PodResourcesModule> module) {
  if (options.kubelet_socket.empty()) {
    std::string recording = JoinPath(paths.host_root, std::string(kPodResourcesRecordingPath));
    StatusOr<std::string> probe = fs.ReadFile(recording, 1);
    if (probe.ok() || probe.status().code() != StatusCode::kNotFound)
      return std::make_unique<RecordedPodResourcesSource>(fs, std::move(recording));
  }
  return KubeletPodResourcesSourceFor(paths, options, std::move(module));
}

}  // namespace rocewatch
