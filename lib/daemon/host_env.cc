#include "daemon/host_env.h"

#include <limits.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdlib>

#include "consumers/dlopen_kubelet_module.h"
#include "consumers/recorded_pod_resources_source.h"
#include "ethtool/ioctl_driver_statistics_source.h"
#include "ethtool/libnl_ethtool_source.h"
#include "lldp/packet_lldp_socket.h"
#include "netlink/libnl_rtnetlink_source.h"
#include "verbs/libibverbs_api.h"

namespace rocewatch {
namespace {

// The binary's path: /proc/self/exe, or where /proc is not mounted (a chroot) the path execve()
// was given (AT_EXECFN: absolute when run through $PATH or by a service manager); "" if neither.
std::string OwnExecutablePath() {
  char path[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length > 0) return std::string(path, static_cast<size_t>(length));
  const char* executed = reinterpret_cast<const char*>(::getauxval(AT_EXECFN));
  return executed != nullptr ? executed : "";
}

}  // namespace

RealHostEnv::RealHostEnv() {
  const char* module_override = std::getenv("ROCEWATCH_KUBELET_MODULE");
  kubelet_module_ = std::make_shared<DlopenKubeletModule>(KubeletModuleCandidates(
      module_override != nullptr ? module_override : "", OwnExecutablePath()));
  env_.attributes = &attributes_;
  env_.files = &files_;
  env_.clock = &clock_;
  env_.notifier = &notifier_;
  env_.verbs = [] { return std::unique_ptr<VerbsApi>(std::make_unique<LibibverbsApi>()); };
  env_.rtnetlink = [clock = &clock_](int receive_buffer_bytes) {
    LibnlRtnetlinkSource::Options options;
    options.receive_buffer_bytes = receive_buffer_bytes;
    return std::unique_ptr<RtnetlinkSource>(
        std::make_unique<LibnlRtnetlinkSource>(*clock, options));
  };
  env_.ethtool = [] {
    EthtoolSources sources;
    auto statistics = std::make_unique<IoctlDriverStatisticsSource>();
    if (Status opened = statistics->Open(); opened.ok()) {
      sources.statistics = std::move(statistics);
    } else {
      sources.statistics_error = opened.message();
    }
    auto netlink = std::make_unique<LibnlEthtoolSource>();
    if (Status opened = netlink->Open(); opened.ok()) {
      sources.netlink = std::move(netlink);
    } else {
      sources.netlink_error = opened.message();
    }
    return sources;
  };
  env_.kubelet = [module = kubelet_module_](const FileSystem& fs, const HostPaths& paths,
                                            const ConsumerOptions& options) {
    return PodResourcesSourceFor(fs, paths, options, module);
  };
  env_.fetch = [](const HttpUrl& url, Duration timeout) { return FetchUrl(url, timeout); };
  env_.lldp = [](const std::string& netdev) { return PacketLldpSocket::Open(netdev); };
  env_.dcb = [] { return LibnlDcbAnswerReader(); };
  env_.state_writer = &state_writer_;
  env_.lock_state_file = [](const std::string& path) { return StateFileLock::Acquire(path); };
  env_.confine = [this](const HostPaths& paths) -> const RefusedReads* {
    const std::vector<std::string> roots = {paths.host_root, paths.sysfs_root};
    // On a live host (root "/", sysfs /sys) nothing is confined: the kernel's trees are trusted.
    if (paths.host_root == "/" && paths.sysfs_root == "/sys") return &refused_reads_;
    attributes_.ConfineBeneath(roots, &refused_reads_);
    files_.ConfineBeneath(roots, &refused_reads_);
    return &refused_reads_;
  };
}

HostEnv ConfinedHostEnv(const HostEnv& env, const HostPaths& paths) {
  HostEnv confined = env;
  if (env.confine) confined.refused_reads = env.confine(paths);
  confined.confine = nullptr;  // once
  return confined;
}

}  // namespace rocewatch
