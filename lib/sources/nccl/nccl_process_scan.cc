#include "nccl/nccl_process_scan.h"

#include "core/text.h"
#include "nccl/nccl_library.h"
#include "procfs/kernel_thread.h"
#include "procfs/own_process.h"
#include "procfs/process_gone.h"

namespace rocewatch {
namespace {

bool Unreadable(const Status& status) { return !ProcessGone(status); }

// A training process maps a few thousand regions (~150 bytes a line); more is cut.
constexpr size_t kMaxMapsBytes = 8 * 1024 * 1024;

}  // namespace

StatusOr<std::string> ReadNcclVersion(const FileSystem& fs, const std::string& process_dir) {
  StatusOr<std::string> maps = fs.ReadFile(JoinPath(process_dir, "maps"), kMaxMapsBytes);
  if (!maps.ok()) return maps.status();
  std::optional<NcclLibraryMapping> nccl = FindNcclLibrary(*maps);
  if (!nccl) return std::string();
  if (!nccl->version.empty() || nccl->site_packages.empty()) return nccl->version;
  StatusOr<std::vector<std::string>> entries =
      fs.ListDir(JoinPath(JoinPath(process_dir, "root"), nccl->site_packages));
  if (!entries.ok()) return std::string();
  return NcclVersionFromDistInfo(*entries).value_or("");
}

NcclProcessScan ScanNcclProcesses(const FileSystem& fs, const std::string& procfs_root,
                                  const std::vector<ProcessEntry>& processes) {
  NcclProcessScan scan;
  const int self = SelfPid(fs, procfs_root);
  for (const ProcessEntry& process : processes) {
    if (IsRocewatchProcess(process.pid, process.comm, self)) continue;  // not a job
    std::string dir = JoinPath(procfs_root, std::to_string(process.pid));
    NcclProcess found{process.pid, process.comm, false, {}, {}, {}};
    bool unreadable = false;

    StatusOr<std::vector<std::string>> fds = fs.ListDir(JoinPath(dir, "fd"));
    const bool no_descriptors = fds.ok() && fds->empty();
    if (fds.ok()) {
      for (const std::string& fd : *fds) {
        StatusOr<std::string> target = fs.ReadLink(JoinPath(JoinPath(dir, "fd"), fd));
        if (target.ok() && target->rfind("/dev/infiniband/uverbs", 0) == 0) {
          found.uses_uverbs = true;
          break;
        }
      }
    } else if (Unreadable(fds.status())) {
      unreadable = true;
    }

    StatusOr<std::string> environ = fs.ReadFile(JoinPath(dir, "environ"), kMaxEnvironBytes);
    std::map<std::string, std::string> variables;
    if (environ.ok()) {
      variables = ParseEnvironBlock(*environ, "NCCL_");
      std::map<std::string, std::string> slurm = ParseEnvironBlock(*environ, "SLURM_JOB_ID");
      long long job = 0;
      if (auto it = slurm.find("SLURM_JOB_ID");
          it != slurm.end() && ParseInteger(Trim(it->second), &job) && job >= 0)
        found.job = std::to_string(job);
    } else if (Unreadable(environ.status())) {
      unreadable = true;
    }
    // A kernel thread runs no job: not a process whose settings went unchecked. Its stat is
    // read only when something else failed, so a healthy scan costs no extra read.
    // (ESRCH on environ is also how a process that is gone answers: not unreadable, but a
    // kernel thread answers it too, and is counted as one.)
    if ((unreadable || IsKernelThreadEnvironError(environ.status())) &&
        (IsKernelThreadEnvironError(environ.status()) || (no_descriptors && !environ.ok()) ||
         IsKernelThread(fs, procfs_root, process.pid))) {
      ++scan.kernel_threads;
      continue;
    }
    if (unreadable) scan.unreadable_pids.push_back(process.pid);
    if (!found.uses_uverbs && variables.empty()) continue;
    found.settings = InterpretNcclSettings(std::move(variables));
    found.nccl_version = ReadNcclVersion(fs, dir).value_or("");
    scan.processes.push_back(std::move(found));
  }
  return scan;
}

}  // namespace rocewatch
