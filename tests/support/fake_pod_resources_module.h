#pragma once
// A PodResourcesModule whose sources are FakePodResourcesSources answering `answer`, or that fails
// with `error`; records every NewSource call.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "consumers/pod_resources_module.h"
#include "support/fake_pod_resources_source.h"

namespace rocewatch {

class FakePodResourcesModule final : public PodResourcesModule {
 public:
  StatusOr<std::unique_ptr<PodResourcesSource>> NewSource(const std::string& socket_path,
                                                          Duration) override {
    sockets.push_back(socket_path);
    if (error) return *error;
    auto source = std::make_unique<FakePodResourcesSource>();
    source->answer = answer;
    return std::unique_ptr<PodResourcesSource>(std::move(source));
  }

  StatusOr<std::vector<PodDeviceAllocation>> answer = std::vector<PodDeviceAllocation>{};
  std::optional<Status> error;
  std::vector<std::string> sockets;  // one per NewSource call
};

}  // namespace rocewatch
