#include "consumers/procfs_consumer_scanner.h"

#include <algorithm>
#include <cerrno>

#include "consumers/cgroup_identity.h"
#include "core/text.h"
#include "nccl/nccl_environment.h"
#include "nccl/nccl_process_scan.h"
#include "procfs/own_process.h"
#include "procfs/process_gone.h"

namespace rocewatch {
namespace {

constexpr std::string_view kUverbsPrefix = "/dev/infiniband/";
constexpr size_t kMaxEnvironBytesForConsumers = 4 * 1024 * 1024;

bool Exited(const Status& status) { return ProcessGone(status); }

// Between half of `period` and `period`, by pid: re-checks of the processes of a node that were
// first seen together (the daemon's first scan) spread over half a period.
Duration SpreadPeriod(Duration period, int pid) {
  return period / 2 + period * (pid % 1024) / 2048;
}

// Names a failed read in `scan` while fewer than kNamedReadFailures are named.
void NameFailure(ProcfsConsumerScan& scan, const std::string& path, int sys_errno) {
  if (scan.failures.size() < kNamedReadFailures)
    scan.failures.push_back(ReadFailure{"procfs", path, sys_errno});
}

// Counts a failed read of this scan in `scan` and names it.
void NoteFailure(ProcfsConsumerScan& scan, const std::string& path, int sys_errno) {
  ++scan.read_errors;
  NameFailure(scan, path, sys_errno);
}

}  // namespace

std::string ParseStatStartTime(std::string_view stat) {
  // "pid (comm) state ppid ...": comm may hold spaces and ')', so fields count from the last ')'.
  size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return "";
  std::vector<std::string> fields = SplitFields(stat.substr(close + 1), " \n");
  constexpr size_t kStartTimeAfterComm = 22 - 3;  // field 22; the fields after ')' start at 3
  if (fields.size() <= kStartTimeAfterComm) return "";
  long long ticks = 0;
  if (!ParseInteger(fields[kStartTimeAfterComm], &ticks) || ticks < 0) return "";
  return fields[kStartTimeAfterComm];
}

ProcfsConsumerScanner::ProcfsConsumerScanner(const FileSystem& fs, HostPaths paths, Options options)
    : fs_(fs), paths_(std::move(paths)), options_(options) {}

std::string ProcfsConsumerScanner::StartTime(const std::string& dir) const {
  StatusOr<std::string> stat = fs_.ReadFile(JoinPath(dir, "stat"), 4096);
  return stat.ok() ? ParseStatStartTime(*stat) : "";
}

std::string ProcfsConsumerScanner::DeviceOfUverbs(const std::string& uverbs) {
  auto cached = uverbs_devices_.find(uverbs);
  if (cached != uverbs_devices_.end()) return cached->second;
  StatusOr<std::string> ibdev = fs_.ReadFile(
      JoinPath(JoinPath(JoinPath(paths_.sysfs_root, "class/infiniband_verbs"), uverbs), "ibdev"),
      256);
  if (!ibdev.ok()) return "";
  std::string device(Trim(*ibdev));
  if (!device.empty()) uverbs_devices_[uverbs] = device;
  return device;
}

Status ProcfsConsumerScanner::ReadDevices(const std::string& dir, std::vector<std::string>* devices,
                                          ProcfsConsumerScan& scan) {
  const std::string fd_dir = JoinPath(dir, "fd");
  StatusOr<std::vector<std::string>> fds = fs_.ListDir(fd_dir);
  if (!fds.ok()) return fds.status();
  ++scan.descriptors_read;
  for (const std::string& fd : *fds) {
    StatusOr<std::string> target = fs_.ReadLink(JoinPath(fd_dir, fd));
    if (!target.ok()) {
      if (Exited(target.status())) continue;  // closed meanwhile
      return target.status();
    }
    if (target->rfind(kUverbsPrefix, 0) != 0) continue;
    std::string node = target->substr(kUverbsPrefix.size());
    if (node.rfind("uverbs", 0) != 0) continue;  // rdma_cm, umad, issm: not a verbs context
    std::string device = DeviceOfUverbs(node);
    if (device.empty()) return Status::NotFound(node + " has no ibdev in sysfs");
    devices->push_back(device);
  }
  std::sort(devices->begin(), devices->end());
  devices->erase(std::unique(devices->begin(), devices->end()), devices->end());
  return Status::Ok();
}

void ProcfsConsumerScanner::Describe(int pid, const std::string& dir, KnownProcess& known,
                                     ProcfsConsumerScan& scan) {
  RailConsumer& consumer = known.consumer;
  consumer = RailConsumer{};
  consumer.pid = pid;
  if (StatusOr<std::string> comm = fs_.ReadFile(JoinPath(dir, "comm"), 256); comm.ok())
    consumer.comm = std::string(Trim(*comm));

  CgroupIdentity identity;
  if (StatusOr<std::string> cgroup = fs_.ReadFile(JoinPath(dir, "cgroup"), 64 * 1024);
      cgroup.ok()) {
    identity = ParseCgroupIdentity(*cgroup);
    if (identity.malformed_lines > 0) ++scan.malformed_cgroups;
  } else if (!Exited(cgroup.status())) {
    NoteFailure(scan, JoinPath(dir, "cgroup"), cgroup.status().sys_errno());
  }
  consumer.pod_uid = identity.pod_uid;
  consumer.container = identity.container_id.substr(0, 12);
  consumer.job = identity.slurm_job;

  StatusOr<std::string> environ =
      fs_.ReadFile(JoinPath(dir, "environ"), kMaxEnvironBytesForConsumers);
  if (environ.ok()) {
    std::map<std::string, std::string> variables = ParseEnvironBlock(*environ, "");
    // A job id is a number; anything else in the variable is not taken (it becomes a label).
    long long job_id = 0;
    if (auto job = variables.find("SLURM_JOB_ID");
        job != variables.end() && ParseInteger(Trim(job->second), &job_id) && job_id >= 0)
      consumer.job = std::to_string(job_id);
    // Inside a pod HOSTNAME is the pod's name (unless the pod sets hostname: then it is that).
    if (auto host = variables.find("HOSTNAME");
        host != variables.end() && !consumer.pod_uid.empty())
      consumer.pod = host->second;
    long long index = 0;
    if (auto gid = variables.find("NCCL_IB_GID_INDEX");
        gid != variables.end() && ParseInteger(Trim(gid->second), &index))
      consumer.nccl_gid_index = index;
  } else if (!Exited(environ.status())) {
    ++scan.environ_unreadable;
    NoteFailure(scan, JoinPath(dir, "environ"), environ.status().sys_errno());
  }
  known.nccl_looked_up = false;
}

ProcfsConsumerScan ProcfsConsumerScanner::Scan(MonoTime now, bool full) {
  ProcfsConsumerScan scan;
  // Unordered: sorting a few thousand names naturally costs more than the listing itself.
  StatusOr<std::vector<std::string>> names = fs_.ListDirUnordered(paths_.procfs_root);
  if (!names.ok()) {
    NoteFailure(scan, paths_.procfs_root, names.status().sys_errno());
    known_.clear();
    return scan;
  }
  scan.procfs_readable = true;
  if (full) uverbs_devices_.clear();
  std::vector<int> pids;
  pids.reserve(names->size());
  for (const std::string& name : *names) {
    long long pid = 0;
    if (ParseInteger(name, &pid) && pid > 0 && pid <= 0x7fffffff) pids.push_back(int(pid));
  }
  std::sort(pids.begin(), pids.end());
  scan.processes = pids.size();
  if (std::binary_search(pids.begin(), pids.end(), 2)) {
    StatusOr<std::string> comm = fs_.ReadFile(JoinPath(paths_.procfs_root, "2/comm"), 256);
    scan.host_namespace = comm.ok() && Trim(*comm) == "kthreadd";
  }
  std::erase_if(known_, [&](const auto& entry) {
    return !std::binary_search(pids.begin(), pids.end(), entry.first);
  });
  const int self = SelfPid(fs_, paths_.procfs_root);

  for (int pid : pids) {
    if (pid == self) continue;
    auto [it, is_new] = known_.try_emplace(pid);
    KnownProcess& known = it->second;
    const Duration period =
        known.devices.empty() ? options_.recheck_after : options_.consumer_recheck_after;
    bool due = full || is_new || now - known.checked >= SpreadPeriod(period, pid);
    if (!due && known.devices.empty() && !known.unreadable) continue;  // the common case
    const std::string dir = JoinPath(paths_.procfs_root, std::to_string(pid));
    if (!due && !known.devices.empty() && StartTime(dir) != known.start_time) {
      known = KnownProcess{};  // exited, or its pid now belongs to another process
      due = true;
    }
    if (due) {
      known.checked = now;
      std::vector<std::string> devices;
      Status read = ReadDevices(dir, &devices, scan);
      // Exited during the scan: its directory gone (ENOENT), or still there as a task that is
      // exiting (ESRCH).
      if (!read.ok() && Exited(read) && (read.sys_errno() == ESRCH || !fs_.IsDirectory(dir))) {
        known_.erase(it);
        continue;
      }
      known.unreadable = !read.ok();
      known.unreadable_errno = read.ok() ? 0 : read.sys_errno();
      if (known.unreadable) {
        ++scan.read_errors;
        devices.clear();
      }
      const bool changed = devices != known.devices;
      known.devices = std::move(devices);
      if (!known.devices.empty() && (changed || known.consumer.pid != pid)) {
        known.start_time = StartTime(dir);
        Describe(pid, dir, known, scan);
      }
      if (!known.devices.empty() && !known.nccl_looked_up) {
        StatusOr<std::string> version = ReadNcclVersion(fs_, dir);
        if (version.ok()) {
          known.nccl_looked_up = true;
          known.consumer.nccl_version = *version;
        } else if (!Exited(version.status())) {
          ++scan.maps_unreadable;
          NoteFailure(scan, JoinPath(dir, "maps"), version.status().sys_errno());
        }
      }
    }
    if (known.unreadable) {
      scan.unreadable_pids.push_back(pid);
      NameFailure(scan, JoinPath(dir, "fd"), known.unreadable_errno);
    }
    if (IsRocewatchProcess(pid, known.consumer.comm, self)) continue;  // procfs/own_process.h
    for (const std::string& device : known.devices)
      scan.consumers[device].push_back(known.consumer);
  }
  return scan;
}

}  // namespace rocewatch
