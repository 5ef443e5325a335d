#pragma once
// The host as every command sees it: the file systems, the clock, the service manager and the
// kernel interfaces (verbs, rtnetlink, ethtool, the kubelet, HTTP to a running daemon). Commands
// (RunDaemon, RunDiagnose, RunCollect) take everything that touches the OS from here and build
// nothing of the OS themselves, so that each runs in-process on fakes (tests/support/
// fake_host_env.h). The real one is RealHostEnv, built once in main().
//
// Each factory returns a new object that the caller owns; objects bound to a network namespace
// (rtnetlink, ethtool) bind to the calling thread's when opened. A factory never returns an error
// for "not on this host": the verbs seam lists no devices, ethtool sources come back null with
// the reason, the kubelet source is null for `--kubelet-socket none`.

#include <functional>
#include <memory>
#include <string>

#include "consumers/consumer_options.h"
#include "consumers/pod_resources.h"
#include "consumers/pod_resources_module.h"
#include "core/clock.h"
#include "ethtool/ethtool_sources.h"
#include "export/http_fetch.h"
#include "lldp/lldp_socket.h"
#include "netlink/dcb_pfc.h"
#include "netlink/rtnetlink_source.h"
#include "os/file_system.h"
#include "os/host_paths.h"
#include "os/service_notifier.h"
#include "os/state_file_lock.h"
#include "os/state_file_writer.h"
#include "verbs/verbs_api.h"

namespace rocewatch {

// One HTTP GET with a deadline.
using HttpFetch = std::function<StatusOr<FetchedPage>(const HttpUrl&, Duration timeout)>;

struct HostEnv {
  // Polled attributes (sysfs, the state file, /proc/sys): one read() each, as the kernel answers
  // a sysfs attribute in one read.
  const FileSystem* attributes = nullptr;
  // Whole files: configuration files and seq_file-backed procfs files (maps, environ), which
  // read short before their end.
  const FileSystem* files = nullptr;
  const Clock* clock = nullptr;
  // systemd readiness and watchdog pings (no-ops without a service manager).
  ServiceNotifier* notifier = nullptr;

  // The libibverbs calls (verbs/verbs_api.h).
  std::function<std::unique_ptr<VerbsApi>()> verbs;
  // An unopened rtnetlink source stamping messages with *clock; receive_buffer_bytes is the
  // SO_RCVBUF of its event socket.
  std::function<std::unique_ptr<RtnetlinkSource>(int receive_buffer_bytes)> rtnetlink;
  std::function<EthtoolSources()> ethtool;
  // Who holds each device, per pod: the kubelet's pod-resources API, or its recording under the
  // host root (read through the given file system); null when options say `none`.
  std::function<std::unique_ptr<PodResourcesSource>(const FileSystem&, const HostPaths&,
                                                    const ConsumerOptions&)>
      kubelet;
  // One HTTP GET (diagnose --daemon).
  HttpFetch fetch;
  // Opens the receive-only LLDP socket of one netdev (AF_PACKET; needs CAP_NET_RAW).
  LldpSocketOpener lldp;
  // Opens a reader of the host's DCB answer for a netdev (DCB netlink, DCB_CMD_IEEE_GET), whose
  // PFC the daemon reads and which collect records; each reader has a socket of its own, bound
  // to the calling thread's network namespace at its first read. Null: not read.
  std::function<DcbAnswerReader()> dcb;

  // Writes the daemon's state file (and slurm-check's record) atomically.
  StateFileWriter* state_writer = nullptr;
  // Takes the one-daemon lock of a state file without waiting: Unavailable naming the holder
  // when another daemon has it. Null: no lock is taken.
  std::function<StatusOr<std::unique_ptr<StateFileLock>>(const std::string& state_path)>
      lock_state_file;

  // Makes `attributes` and `files` resolve every path below the roots of `paths` (--host-root,
  // --sysfs-root; "/" is no root) without following a link out of them (PosixFileSystem::
  // ConfineBeneath) and returns where the refused paths are noted. Null (fakes): not confined.
  // REQUIRES: called once, before any read (ConfinedHostEnv does it).
  std::function<const RefusedReads*(const HostPaths&)> confine;
  // The paths refused so far, once confined; null otherwise.
  const RefusedReads* refused_reads = nullptr;
};

// `env` with its file systems confined below the roots of `paths` (HostEnv::confine).
HostEnv ConfinedHostEnv(const HostEnv& env, const HostPaths& paths);

// The real host: POSIX file systems, the system clock, systemd, libibverbs, libnl, the ethtool
// ioctl and netlink family, the kubelet over gRPC (the kubelet module, loaded once a socket
// exists: consumers/dlopen_kubelet_module.h; ROCEWATCH_KUBELET_MODULE names another file), plain
// HTTP, the state file written with rename and locked with flock. Constructing it opens nothing.
class RealHostEnv {
 public:
  RealHostEnv();
  RealHostEnv(const RealHostEnv&) = delete;
  RealHostEnv& operator=(const RealHostEnv&) = delete;

  const HostEnv& env() const { return env_; }

 private:
  PosixFileSystem attributes_{PosixFileSystem::Options{.stop_at_short_read = true}};
  PosixFileSystem files_;
  RefusedReads refused_reads_;
  SystemClock clock_;
  SystemdNotifier notifier_;
  PosixStateFileWriter state_writer_;
  std::shared_ptr<PodResourcesModule> kubelet_module_;
  HostEnv env_;
};

}  // namespace rocewatch
