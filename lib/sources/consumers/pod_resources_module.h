#pragma once
// Where the kubelet client comes from: a factory of PodResourcesSources talking to a kubelet
// socket. The real one (DlopenKubeletModule) loads the kubelet module on its first call; tests
// pass a fake (tests/support/fake_pod_resources_module.h).

#include <memory>
#include <string>

#include "consumers/pod_resources.h"
#include "core/clock.h"

namespace rocewatch {

class PodResourcesModule {
 public:
  virtual ~PodResourcesModule() = default;
  // A client of the kubelet's pod-resources API on `socket_path`, each call bounded by `timeout`.
  // Errors (a one-line message naming the module): Unavailable when the module is missing, cannot
  // be loaded, is not a kubelet module or was built for another ABI.
  virtual StatusOr<std::unique_ptr<PodResourcesSource>> NewSource(const std::string& socket_path,
                                                                  Duration timeout) = 0;
};

}  // namespace rocewatch
