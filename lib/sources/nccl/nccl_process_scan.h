#pragma once
// Finds the processes that use RDMA (an open /dev/infiniband/uverbs* descriptor) or carry NCCL_*
// variables, and reads their NCCL settings: <procfs>/<pid>/fd/* (symlinks) and
// <procfs>/<pid>/environ (NUL-separated). Reading another user's process needs root (or
// CAP_SYS_PTRACE): such pids are counted, never fatal. rocewatch's own processes
// (procfs/own_process.h) are no jobs and are left out.

#include <string>
#include <vector>

#include "nccl/nccl_environment.h"
#include "os/file_system.h"
#include "procfs/process_list.h"

namespace rocewatch {

struct NcclProcess {
  int pid = 0;
  std::string comm;
  bool uses_uverbs = false;  // an fd links to /dev/infiniband/uverbs*
  NcclSettings settings;
  // The NCCL the process runs ("2.21.5", from its maps: ReadNcclVersion); empty when unknown.
  std::string nccl_version;
  // The Slurm job it belongs to (a number from SLURM_JOB_ID); empty outside Slurm.
  std::string job;
};

struct NcclProcessScan {
  std::vector<NcclProcess> processes;  // ascending pid
  // Pids whose environ or fd directory could not be read (permission denied or I/O error);
  // processes that exited during the scan and kernel threads (procfs/kernel_thread.h) are not
  // counted.
  std::vector<int> unreadable_pids;
  // Kernel threads whose environ or fd directory could not be read, skipped (they run no job).
  size_t kernel_threads = 0;
};

// environ is at most a few pages in practice; a bigger block is cut at this bound (the parser
// then drops the cut entry unless it is complete).
inline constexpr size_t kMaxEnvironBytes = 4 * 1024 * 1024;

// The version of the NCCL that the process at `process_dir` (<procfs>/<pid>) maps: from the
// library's name, or for a pip wheel from the dist-info beside it under <process_dir>/root (the
// process's own mount namespace). "" when no NCCL is mapped (statically linked builds: unknown)
// or its version cannot be told. Errors: the maps read failed (NotFound: the process exited).
StatusOr<std::string> ReadNcclVersion(const FileSystem& fs, const std::string& process_dir);

NcclProcessScan ScanNcclProcesses(const FileSystem& fs, const std::string& procfs_root,
                                  const std::vector<ProcessEntry>& processes);

}  // namespace rocewatch
