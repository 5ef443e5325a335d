#include "consumers/pod_resources_recording.h"

#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace rocewatch {
namespace {

using nlohmann::ordered_json;

// The Status a recorded code name stands for (StatusCodeName's inverse); unknown names are IoError.
Status RecordedFailure(const std::string& code, std::string message) {
  if (code == StatusCodeName(StatusCode::kNotFound)) return Status::NotFound(std::move(message));
  if (code == StatusCodeName(StatusCode::kUnavailable))
    return Status::Unavailable(std::move(message));
  if (code == StatusCodeName(StatusCode::kPermissionDenied))
    return Status::PermissionDenied(std::move(message));
  if (code == StatusCodeName(StatusCode::kInvalidArgument))
    return Status::InvalidArgument(std::move(message));
  if (code == StatusCodeName(StatusCode::kCorrupt)) return Status::Corrupt(std::move(message));
  if (code == StatusCodeName(StatusCode::kInternal)) return Status::Internal(std::move(message));
  return Status::IoError(std::move(message));
}

std::string StringAt(const nlohmann::json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

const nlohmann::json& ArrayAt(const nlohmann::json& object, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  auto found = object.find(key);
  return found != object.end() && found->is_array() ? *found : kEmpty;
}

}  // namespace

std::string FormatPodResourcesRecording(const std::string& source,
                                        const StatusOr<std::vector<PodDeviceAllocation>>& answer) {
  ordered_json recording = {{"source", source}};
  if (!answer.ok()) {
    recording["error"] = {{"code", StatusCodeName(answer.status().code())},
                          {"message", answer.status().message()}};
    return recording.dump(2) + "\n";
  }
  // Allocations are one per container and resource: grouped back into pods and containers, in
  // the order the kubelet listed them.
  ordered_json pods = ordered_json::array();
  std::map<std::pair<std::string, std::string>, size_t> pod_index;
  for (const PodDeviceAllocation& a : *answer) {
    auto [it, added] = pod_index.try_emplace({a.pod_namespace, a.pod}, pods.size());
    if (added)
      pods.push_back(
          {{"name", a.pod}, {"namespace", a.pod_namespace}, {"containers", ordered_json::array()}});
    ordered_json& containers = pods[it->second]["containers"];
    if (containers.empty() || containers.back()["name"] != a.container)
      containers.push_back({{"name", a.container}, {"devices", ordered_json::array()}});
    containers.back()["devices"].push_back(
        {{"resourceName", a.resource_name}, {"deviceIds", a.device_ids}});
  }
  recording["podResources"] = std::move(pods);
  return recording.dump(2) + "\n";
}

StatusOr<std::vector<PodDeviceAllocation>> ParsePodResourcesRecording(std::string_view text) {
  nlohmann::json recording = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (recording.is_discarded() || !recording.is_object())
    return Status::Corrupt("not a JSON object");
  if (auto error = recording.find("error"); error != recording.end()) {
    if (!error->is_object()) return Status::Corrupt("\"error\" is not an object");
    const std::string message = StringAt(*error, "message");
    return RecordedFailure(StringAt(*error, "code"),
                           message.empty() ? "the recorded kubelet call failed" : message);
  }
  std::vector<PodDeviceAllocation> allocations;
  for (const nlohmann::json& pod : ArrayAt(recording, "podResources")) {
    if (!pod.is_object()) return Status::Corrupt("a podResources entry is not an object");
    for (const nlohmann::json& container : ArrayAt(pod, "containers")) {
      if (!container.is_object()) return Status::Corrupt("a containers entry is not an object");
      for (const nlohmann::json& devices : ArrayAt(container, "devices")) {
        if (!devices.is_object()) return Status::Corrupt("a devices entry is not an object");
        PodDeviceAllocation allocation;
        allocation.pod = StringAt(pod, "name");
        allocation.pod_namespace = StringAt(pod, "namespace");
        allocation.container = StringAt(container, "name");
        allocation.resource_name = StringAt(devices, "resourceName");
        for (const nlohmann::json& id : ArrayAt(devices, "deviceIds"))
          if (id.is_string()) allocation.device_ids.push_back(id.get<std::string>());
        allocations.push_back(std::move(allocation));
      }
    }
  }
  return allocations;
}

}  // namespace rocewatch
