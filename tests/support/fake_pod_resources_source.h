#pragma once
// A PodResourcesSource whose answers a test scripts; records how many calls were requested.

#include <optional>
#include <vector>

#include "consumers/pod_resources.h"

namespace rocewatch {

class FakePodResourcesSource final : public PodResourcesSource {
 public:
  std::string Describe() const override { return "unix:///fake/kubelet.sock"; }
  void Request() override {
    ++requests;
    if (!in_flight) in_flight = true;
  }
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> TakeAnswer() override {
    if (!in_flight || hang) return std::nullopt;
    in_flight = false;
    return answer;
  }
  StatusOr<std::vector<PodDeviceAllocation>> ListNow() override {
    ++requests;
    return answer;
  }

  StatusOr<std::vector<PodDeviceAllocation>> answer = std::vector<PodDeviceAllocation>{};
  bool hang = false;  // calls stay in flight
  bool in_flight = false;
  int requests = 0;
};

}  // namespace rocewatch
