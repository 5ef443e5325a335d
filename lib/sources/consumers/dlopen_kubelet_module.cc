#include "consumers/dlopen_kubelet_module.h"

#include <unistd.h>

#include <chrono>
#include <utility>

namespace rocewatch {
namespace {

std::string FirstLine(std::string text) {
  if (size_t end = text.find('\n'); end != std::string::npos) text.resize(end);
  return text;
}

std::string Joined(const std::vector<std::string>& paths) {
  std::string joined;
  for (const std::string& path : paths) joined += (joined.empty() ? "" : ", ") + path;
  return joined;
}

}  // namespace

DlopenKubeletModule::DlopenKubeletModule(std::vector<std::string> candidates, KubeletModuleAbi abi)
    : candidates_(std::move(candidates)), abi_(abi) {}

StatusOr<KubeletModuleEntry> DlopenKubeletModule::Load() {
  for (const std::string& candidate : candidates_) {
    if (::access(candidate.c_str(), F_OK) != 0) continue;
    path_ = candidate;
    // Never dlclose()d: gRPC's threads run code of the module until the process exits.
    void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* reason = ::dlerror();
      return Status::Unavailable("kubelet module " + candidate + " cannot be loaded: " +
                                 FirstLine(reason != nullptr ? reason : "dlopen failed"));
    }
    void* entry = ::dlsym(handle, kKubeletModuleEntryPoint);
    if (entry == nullptr) {
      return Status::Unavailable("kubelet module " + candidate + " is not a rocewatch kubelet " +
                                 "module (no " + kKubeletModuleEntryPoint + ")");
    }
    return reinterpret_cast<KubeletModuleEntry>(entry);
  }
  return Status::Unavailable(std::string("no kubelet module (") + kKubeletModuleFileName +
                             ", the kubelet's gRPC client) " +
                             (candidates_.empty()
                                  ? std::string("to look for: the binary's own path is unknown "
                                                "(set ROCEWATCH_KUBELET_MODULE)")
                                  : "at " + Joined(candidates_)));
}

StatusOr<std::unique_ptr<PodResourcesSource>> DlopenKubeletModule::NewSource(
    const std::string& socket_path, Duration timeout) {
  KubeletModuleEntry entry = nullptr;
  std::string path;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_) loaded_ = Load();
    if (!loaded_->ok()) return loaded_->status();
    entry = **loaded_;
    path = path_;
  }
  char error[512] = "";
  const auto timeout_ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
  PodResourcesSource* source =
      entry(&abi_, socket_path.c_str(), static_cast<int64_t>(timeout_ms), error, sizeof(error));
  if (source == nullptr)
    return Status::Unavailable("kubelet module " + path + " refused: " + FirstLine(error));
  return std::unique_ptr<PodResourcesSource>(source);
}

std::vector<std::string> KubeletModuleCandidates(const std::string& override_path,
                                                 const std::string& executable) {
  if (!override_path.empty()) return {override_path};
  const size_t slash = executable.rfind('/');
  if (slash == std::string::npos) return {};
  const std::string directory = executable.substr(0, slash);
  return {directory + "/" + kKubeletModuleFileName,
          directory + "/" + kKubeletModuleInstallDirFromBinary + "/" + kKubeletModuleFileName};
}

}  // namespace rocewatch
