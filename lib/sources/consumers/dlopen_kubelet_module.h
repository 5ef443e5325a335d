#pragma once
// PodResourcesModule from librocewatch-kubelet.so (kubelet_module_abi.h). The module is loaded
// the first time a source is asked for, from the first of `candidates` that exists, with
// dlopen(RTLD_NOW | RTLD_LOCAL), and never unloaded (gRPC keeps threads running inside it). A
// failed load is remembered: every later NewSource returns the same error without trying again.
//
// Threading: safe from any thread (the load is serialised).

#include <dlfcn.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "consumers/kubelet_module_abi.h"
#include "consumers/pod_resources_module.h"

namespace rocewatch {

class DlopenKubeletModule final : public PodResourcesModule {
 public:
  // `abi`: what this binary passes to the entry point (tests pass another to see it refused).
  explicit DlopenKubeletModule(std::vector<std::string> candidates,
                               KubeletModuleAbi abi = KubeletModuleAbi{});

  StatusOr<std::unique_ptr<PodResourcesSource>> NewSource(const std::string& socket_path,
                                                          Duration timeout) override;

 private:
  StatusOr<KubeletModuleEntry> Load();  // REQUIRES: mutex_ held

  const std::vector<std::string> candidates_;
  const KubeletModuleAbi abi_;
  std::mutex mutex_;
  std::optional<StatusOr<KubeletModuleEntry>> loaded_;  // GUARDED_BY(mutex_)
  std::string path_;                                    // GUARDED_BY(mutex_): the loaded file
};

// Where the module is looked for: `override_path` alone when not empty (ROCEWATCH_KUBELET_MODULE);
// otherwise next to the executable (the build tree) and in kKubeletModuleInstallDirFromBinary
// relative to it (an installed tree, the image). `executable`: the binary's own path
// (/proc/self/exe); empty: only the override, if any.
std::vector<std::string> KubeletModuleCandidates(const std::string& override_path,
                                                 const std::string& executable);

}  // namespace rocewatch
