#pragma once
// Finds the processes that hold each RDMA device, through FileSystem under the host root:
//
//   <procfs>/<pid>/fd/*        symlinks to /dev/infiniband/uverbsN     needs ptrace-read access
//   <sysfs>/class/infiniband_verbs/uverbsN/ibdev -> the device name     world-readable
//   <procfs>/<pid>/comm, cgroup -> pod UID, container id, Slurm job     world-readable
//   <procfs>/<pid>/environ: SLURM_JOB_ID, HOSTNAME (the pod name),      needs ptrace-read access
//                           NCCL_IB_GID_INDEX
//   <procfs>/<pid>/maps (+ root/ for a pip wheel's dist-info): NCCL     needs ptrace-read access
//
// "ptrace-read access" is the kernel's PTRACE_MODE_READ check: the reader runs as the same user
// as the process, or holds CAP_SYS_PTRACE (root in the host's user namespace has it). Each datum
// degrades on its own: an unreadable environ leaves the job empty, an unreadable maps the NCCL
// version; only unreadable descriptors make the scan blind to whether the process holds a device.
// Seeing the node's processes at all needs the host's process namespace: kernel threads (pid 2,
// kthreadd) are visible only there, which is how the scan tells (in a pod: hostPID, or the host's
// /proc under --host-root).
//
// Cost: the daemon scans incrementally (Scan(now, false)): one listing of <procfs>, the
// descriptors of processes it has not seen before, one small read per known consumer (its start
// time, so that a reused pid is not mistaken for it) and slow, spread re-checks (Options).
// bench/micro measures both kinds of scan.
//
// Threading: not thread-safe. Lifetime: fs outlives the scanner.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "model/node.h"
#include "model/rail_consumer.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

struct ProcfsConsumerScan {
  bool procfs_readable = false;  // <procfs> could be listed
  bool host_namespace = false;   // kernel threads visible: the scan sees every process of the node
  size_t processes = 0;          // processes listed
  size_t descriptors_read = 0;   // processes whose fd/ this scan read (the cost)
  std::vector<int> unreadable_pids;  // fd/ not readable: whether they hold a device is unknown
  size_t environ_unreadable = 0;     // consumers whose environ could not be read
  size_t maps_unreadable = 0;        // consumers whose maps could not be read
  size_t malformed_cgroups = 0;      // consumers with garbage cgroup lines
  uint64_t read_errors = 0;          // failed reads (exited processes excluded)
  // The failed reads behind read_errors and unreadable_pids, source "procfs", the first
  // kNamedReadFailures of them: the process list, a process's fd/ (still unreadable from an
  // earlier scan included), a consumer's cgroup, environ or maps.
  std::vector<ReadFailure> failures;
  // Consumers by device name; a process holding two devices is listed under both.
  std::map<std::string, std::vector<RailConsumer>> consumers;

  // True when the absence of a consumer is proven: the host's processes were all read.
  bool Complete() const { return procfs_readable && host_namespace && unreadable_pids.empty(); }
};

class ProcfsConsumerScanner {
 public:
  struct Options {
    // A process that held no device when last looked at is looked at again after between half
    // of this and this (spread by pid, so that the re-checks of a node do not come at once): it
    // may have opened a device since. New processes are looked at on their first scan.
    Duration recheck_after = std::chrono::hours(1);
    // The same for a process that held a device (it may have closed it, or its pid been reused
    // meanwhile: its start time is compared at every scan).
    Duration consumer_recheck_after = std::chrono::minutes(5);
  };

  ProcfsConsumerScanner(const FileSystem& fs, HostPaths paths, Options options);
  ProcfsConsumerScanner(const FileSystem& fs, HostPaths paths)
      : ProcfsConsumerScanner(fs, std::move(paths), Options{}) {}

  // One scan. `full`: read every process's descriptors now (diagnose; the daemon when traffic
  // shows a consumer it does not know). Otherwise only what is new or due (see above).
  ProcfsConsumerScan Scan(MonoTime now, bool full);

 private:
  struct KnownProcess {
    MonoTime checked{};
    std::string start_time;  // field 22 of stat, for consumers only
    bool unreadable = false;
    int unreadable_errno = 0;  // of the fd/ read, while unreadable
    std::vector<std::string> devices;
    RailConsumer consumer;
    bool nccl_looked_up = false;  // maps read once the process held a device
  };

  // What the descriptors of `pid` hold: device names (sorted, unique). Status of the listing.
  Status ReadDevices(const std::string& dir, std::vector<std::string>* devices,
                     ProcfsConsumerScan& scan);
  // cgroup, environ, maps of a process that holds a device.
  void Describe(int pid, const std::string& dir, KnownProcess& known, ProcfsConsumerScan& scan);
  std::string StartTime(const std::string& dir) const;
  std::string DeviceOfUverbs(const std::string& uverbs);

  const FileSystem& fs_;
  const HostPaths paths_;
  const Options options_;
  std::map<int, KnownProcess> known_;
  std::map<std::string, std::string> uverbs_devices_;  // uverbsN -> device, cached
};

// <procfs>/<pid>/stat's start time (field 22, clock ticks since boot), "" when unreadable.
std::string ParseStatStartTime(std::string_view stat);

}  // namespace rocewatch
