#include "collect/support_bundle.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "build_info.h"
#include "collect/lldp_capture.h"
#include "consumers/pod_resources_recording.h"
#include "daemon/defaults.h"
#include "diagnose/daemon_recording.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "lldp/lldp_pcap.h"
#include "model/rnic_netdevs.h"
#include "netlink/dcb_recording.h"
#include "os/boot_id.h"
#include "os/netdev_recording.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {
namespace {

constexpr size_t kMaxFileBytes = 1 << 20;

bool IsNumber(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(c); });
}

// Copies files between a host path and its place in the bundle.
class Copier {
 public:
  Copier(const FileSystem& fs, BundleWriter& out, CollectSummary& summary)
      : fs_(fs), out_(out), summary_(summary) {}

  // Copies the regular file `from` to `to`; a failed read is skipped (absent reads back as absent).
  bool File(const std::string& from, const std::string& to) {
    StatusOr<std::string> content = fs_.ReadFile(from, kMaxFileBytes);
    if (!content.ok()) return false;
    return Write(to, *content);
  }
  bool Write(const std::string& to, const std::string& content) {
    Status written = out_.WriteFile(to, content);
    if (!written.ok()) {
      if (summary_.files == 0) fatal_ = written;
      summary_.failures.push_back(written.message());
      return false;
    }
    ++summary_.files;
    return true;
  }
  // Copies the files directly in `from` (not its subdirectories, not links).
  void Files(const std::string& from, const std::string& to) {
    StatusOr<std::vector<std::string>> names = fs_.ListDir(from);
    if (!names.ok()) return;
    for (const std::string& name : *names) {
      const std::string path = JoinPath(from, name);
      if (fs_.ReadLink(path).ok() || fs_.IsDirectory(path)) continue;
      File(path, JoinPath(to, name));
    }
  }
  // Copies `from` recursively (regular files and directories; links are not followed, so sysfs
  // loops cannot trap it), at most `depth` levels down.
  void Tree(const std::string& from, const std::string& to, int depth = 6) {
    StatusOr<std::vector<std::string>> names = fs_.ListDir(from);
    if (!names.ok()) return;
    if (names->empty()) Dir(to);
    for (const std::string& name : *names) {
      const std::string path = JoinPath(from, name);
      if (fs_.ReadLink(path).ok()) continue;
      if (fs_.IsDirectory(path)) {
        if (depth > 0) Tree(path, JoinPath(to, name), depth - 1);
      } else {
        File(path, JoinPath(to, name));
      }
    }
  }
  // An empty directory (its presence is information: a device without netdev attributes).
  void Dir(const std::string& to) {
    if (Status made = out_.MakeDir(to); !made.ok()) summary_.failures.push_back(made.message());
  }
  Status fatal() const { return fatal_; }

 private:
  const FileSystem& fs_;
  BundleWriter& out_;
  CollectSummary& summary_;
  Status fatal_;
};

// The node as rocewatch sees it, from sysfs (GID tables included, no counters): what "the RNIC
// netdevs" are (model/rnic_netdevs.h), as the daemon and diagnose take them. A tree that cannot be
// read gives no netdev, and the copy above has said why.
NodeSnapshot CollectedSnapshot(const FileSystem& fs, const HostPaths& paths) {
  SysfsGidTableSource gids(fs, paths.sysfs_root);
  StatusOr<NodeSnapshot> snapshot = SysfsInventory(fs, paths.sysfs_root).Read(&gids, false);
  return snapshot.ok() ? std::move(snapshot).value() : NodeSnapshot{};
}

void CollectEthtool(EthtoolPoller& ethtool, const std::set<std::string>& netdevs, Copier& copy,
                    CollectSummary& summary, const CollectOptions& options) {
  for (auto& entry : ethtool.Poll(netdevs)) {
    // Named references, not a structured binding: lambdas cannot capture bindings before C++20
    // compilers implement P1091 (clang 14, the sanitizer builds' compiler, does not).
    const std::string& netdev = entry.first;
    auto& r = entry.second;
    if (!r.present) continue;
    if (!r.recorded && r.outcomes.empty()) continue;  // no ethtool access at all
    const std::string dir = "rocewatch/ethtool/" + netdev + "/";
    auto record = [&](const char* request, const std::string& file, const auto& reading,
                      auto format) {
      auto outcome = r.outcomes.find(request);
      if (outcome == r.outcomes.end()) return;
      if (outcome->second == RequestOutcome::kAnswered && reading) {
        copy.Write(dir + file, format(*reading));
      } else if (outcome->second == RequestOutcome::kUnsupported) {
        copy.Write(dir + file, kUnsupportedRecording);
      } else if (outcome->second == RequestOutcome::kFailed) {
        summary.failures.push_back(netdev + " " + request + " failed");
      }
    };
    record("statistics", "statistics", r.driver, FormatDriverStatisticsText);
    record("fec", "fec", r.fec, FormatFecRecording);
    record("link_state", "link_state", r.link_state, FormatLinkStateRecording);
    record("pause", "pause", r.pause, FormatPauseRecording);
    record("standard_statistics", "standard_statistics", r.standard,
           FormatStandardStatisticsRecording);
    for (const std::string& error : r.errors) summary.failures.push_back(netdev + " " + error);
    if (!options.optics) continue;
    ModuleOutcome module = ethtool.PollModule(netdev);
    for (const auto& [address, bytes] : module.pages)
      copy.Write(dir + "module/" + ModulePageFileName(address), bytes);
    if (!module.error.empty()) summary.failures.push_back(netdev + " module: " + module.error);
  }
}

}  // namespace

StatusOr<CollectSummary> CollectSupportBundle(const FileSystem& fs, const HostPaths& paths,
                                              EthtoolPoller& ethtool, NetdevReader& netdev_reader,
                                              BundleWriter& out, const CollectOptions& options,
                                              double unix_now) {
  CollectSummary summary;
  Copier copy(fs, out, summary);
  nlohmann::ordered_json meta = {{"rocewatch_version", kVersion},
                                 {"git_revision", kGitRevision},
                                 {"collected_at_unix", unix_now},
                                 {"host_root", paths.host_root}};
  if (!copy.Write("rocewatch/bundle.json", meta.dump(2) + "\n")) return copy.fatal();

  // sysfs: the RDMA devices, each as a plain directory (the class entries are links in sysfs).
  // The class directories exist even when empty: a host without RDMA devices reads back as one.
  copy.Dir("sys/class/infiniband");
  copy.Dir("sys/class/net");
  const std::string infiniband = paths.InfinibandClassDir();
  if (auto devices = fs.ListDir(infiniband); devices.ok()) {
    for (const std::string& device : *devices) {
      const std::string from = JoinPath(infiniband, device);
      const std::string to = "sys/class/infiniband/" + device;
      copy.Files(from, to);
      copy.Tree(JoinPath(from, "ports"), to + "/ports");
      // The PCI address of the device (PCI_SLOT_NAME), which maps the kubelet's SR-IOV VFs to it.
      copy.File(JoinPath(from, "device/uevent"), to + "/device/uevent");
      const std::string net = JoinPath(from, "device/net");
      if (auto names = fs.ListDir(net); names.ok())
        for (const std::string& name : *names)
          if (!copy.File(JoinPath(net, name + "/dev_port"),
                         to + "/device/net/" + name + "/dev_port"))
            copy.Dir(to + "/device/net/" + name);
    }
  } else {
    summary.failures.push_back(infiniband + ": " + devices.status().message());
  }

  // The verbs character devices' RDMA devices: what a process's /dev/infiniband/uverbsN holds.
  const std::string verbs = JoinPath(paths.sysfs_root, "class/infiniband_verbs");
  if (auto nodes = fs.ListDir(verbs); nodes.ok())
    for (const std::string& node : *nodes)
      copy.File(JoinPath(verbs, node + "/ibdev"), "sys/class/infiniband_verbs/" + node + "/ibdev");

  const NodeSnapshot node = CollectedSnapshot(fs, paths);
  const std::vector<std::string> netdevs = RnicNetdevs(node, RnicNetdevScope::kAll);
  const std::vector<std::string> port_netdevs = RnicNetdevs(node, RnicNetdevScope::kPort);
  summary.netdevs.assign(netdevs.begin(), netdevs.end());
  for (const std::string& netdev : netdevs) {
    copy.Files(JoinPath(paths.NetClassDir(), netdev), "sys/class/net/" + netdev);
    copy.Files(JoinPath(paths.NetClassDir(), netdev + "/statistics"),
               "sys/class/net/" + netdev + "/statistics");
  }
  std::vector<std::string> ipv6_confs(netdevs.begin(), netdevs.end());
  ipv6_confs.push_back("all");
  ipv6_confs.push_back("default");
  for (const std::string& conf : ipv6_confs)
    copy.File(JoinPath(paths.procfs_root, "sys/net/ipv6/conf/" + conf + "/keep_addr_on_down"),
              "proc/sys/net/ipv6/conf/" + conf + "/keep_addr_on_down");
  // The boot id: diagnose of the bundle tells the collected host's daemon (and its state file)
  // from another host's by it.
  copy.File(JoinPath(paths.procfs_root, "sys/kernel/random/boot_id"),
            "proc/sys/kernel/random/boot_id");
  // The daemon's state file at its default path: what the node had on this boot
  // (rail_address_missing in diagnose of the bundle).
  copy.File(JoinPath(paths.host_root, defaults::kStateFile),
            std::string(defaults::kStateFile).substr(1));

  // Network configuration and the managers' runtime state.
  for (const char* dir : {"NetworkManager", "systemd/network", "netplan", "network"})
    copy.Tree(JoinPath(paths.etc_root, dir), std::string("etc/") + dir);
  for (const char* file : {"systemd/networkd.conf"})
    copy.File(JoinPath(paths.etc_root, file), std::string("etc/") + file);
  copy.Tree(JoinPath(paths.etc_root, "systemd/networkd.conf.d"), "etc/systemd/networkd.conf.d");
  for (const char* dir : {"NetworkManager/devices", "systemd/netif/links"})
    copy.Tree(JoinPath(paths.run_root, dir), std::string("run/") + dir);

  // Processes that hold an RDMA device, with their NCCL environment. Every other process leaves
  // what the consumer scan learnt from it: an empty fd/ (it holds no device), or a bare
  // proc/<pid>/ (its descriptors were unreadable: whether it holds one is unknown).
  if (auto pids = fs.ListDir(paths.procfs_root); pids.ok()) {
    for (const std::string& pid : *pids) {
      if (!IsNumber(pid)) continue;
      const std::string dir = JoinPath(paths.procfs_root, pid);
      // The network managers' processes: diagnose says whether they run. Pid 2 (kthreadd) shows
      // the host's process namespace.
      if (StatusOr<std::string> comm = fs.ReadFile(JoinPath(dir, "comm"), 256); comm.ok()) {
        if (*comm == "NetworkManager\n" || *comm == "systemd-networkd\n" || pid == "2")
          copy.Write("proc/" + pid + "/comm", *comm);
      }
      auto fds = fs.ListDir(JoinPath(dir, "fd"));
      if (!fds.ok()) {
        if (fds.status().code() != StatusCode::kNotFound) copy.Dir("proc/" + pid);
        continue;  // NotFound: exited meanwhile
      }
      std::vector<std::pair<std::string, std::string>> uverbs;
      for (const std::string& fd : *fds) {
        StatusOr<std::string> target = fs.ReadLink(JoinPath(dir, "fd/" + fd));
        if (target.ok() && target->rfind("/dev/infiniband/uverbs", 0) == 0)
          uverbs.emplace_back(fd, *target);
      }
      if (uverbs.empty()) {
        copy.Dir("proc/" + pid + "/fd");
        continue;
      }
      for (const auto& [fd, target] : uverbs) {
        Status linked = out.MakeLink("proc/" + pid + "/fd/" + fd, target);
        if (!linked.ok()) summary.failures.push_back(linked.message());
      }
      for (const char* file : {"comm", "cmdline", "environ", "cgroup", "maps"}) {
        StatusOr<std::string> content = fs.ReadFile(JoinPath(dir, file), kMaxFileBytes);
        if (content.ok()) {
          copy.Write("proc/" + pid + "/" + file, *content);
        } else if (content.status().code() != StatusCode::kNotFound) {
          summary.failures.push_back("proc/" + pid + "/" + file + ": " +
                                     content.status().message());
        }
      }
    }
  }

  // Addresses and link flags as this namespace sees them: diagnose of the bundle reads them back
  // (os/netdev_recording.h).
  copy.Write("rocewatch/netlink/addresses", FormatNetdevRecording(netdev_reader.Read(netdevs)));

  // The kubelet's answer (which pods hold RDMA devices or GPUs), as a recording.
  if (options.kubelet != nullptr) {
    StatusOr<std::vector<PodDeviceAllocation>> answer = options.kubelet->ListNow();
    if (!answer.ok() && answer.status().code() != StatusCode::kNotFound)
      summary.failures.push_back("kubelet: " + answer.status().message());
    copy.Write(std::string(kPodResourcesRecordingPath),
               FormatPodResourcesRecording(options.kubelet->Describe(), answer));
  }

  // What the running daemon knows (its findings, events and /metrics), as it answered; a daemon
  // watching another host is refused as diagnose refuses it.
  if (options.daemon) {
    const DaemonView view =
        ViewDaemon(options.daemon, options.daemon_url, ReadBootId(fs, paths.procfs_root));
    if (std::string failure = DaemonRecordingFailure(view, options.daemon_url); !failure.empty())
      summary.failures.push_back(std::move(failure));
    for (const auto& [path, content] : DaemonRecordingFiles(view, options.daemon_url, unix_now))
      copy.Write(path, content);
  }

  CollectEthtool(ethtool, {netdevs.begin(), netdevs.end()}, copy, summary, options);

  // The host's DCB answer of each RoCE port's netdev (its PFC), as the kernel gave it.
  if (options.dcb)
    for (const std::string& netdev : port_netdevs) {
      StatusOr<std::optional<std::vector<uint8_t>>> answer = options.dcb(netdev);
      if (!answer.ok() && answer.status().code() == StatusCode::kNotFound) continue;
      if (!answer.ok())
        summary.failures.push_back("dcb " + netdev + ": " + answer.status().message());
      copy.Write(DcbRecordingBundlePath(netdev), FormatDcbRecording(netdev, answer));
    }

  // Each rail's far end: the last LLDP frame of each RoCE port's netdev, as tcpdump writes it.
  if (options.lldp && options.clock != nullptr && options.lldp_wait > Duration::zero()) {
    LldpCapture lldp = CaptureLldpFrames(options.lldp, {port_netdevs.begin(), port_netdevs.end()},
                                         *options.clock, options.lldp_wait);
    for (const auto& [netdev, frame] : lldp.last_frame)
      copy.Write("rocewatch/lldp/" + netdev + ".pcap", WriteLldpPcap(frame, unix_now));
    summary.failures.insert(summary.failures.end(), lldp.failures.begin(), lldp.failures.end());
  }

  meta["rnic_netdevs"] = summary.netdevs;
  meta["files"] = summary.files + 1;
  meta["failures"] = summary.failures;
  copy.Write("rocewatch/bundle.json", meta.dump(2) + "\n");
  return summary;
}

}  // namespace rocewatch
