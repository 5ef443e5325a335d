#pragma once
// Kernel threads: entries of procfs that are no program. They hold no RDMA device (a kernel RDMA
// user such as NFS over RDMA holds none through a file descriptor) and carry no environment, so
// that a check of processes' settings skips them instead of reporting them unreadable.
//
// Signs, any of which suffices (kernel fs/proc/base.c, kernel/kthread.c):
//   - <pid>/stat's flags carry PF_KTHREAD (0x00200000), or its parent is kthreadd (pid 2), or it
//     is kthreadd itself; <pid>/stat is readable by every user;
//   - reading <pid>/environ fails with ESRCH (Linux 6.x: a kernel thread has no mm to read it
//     from), even as root;
//   - its fd/ is readable and empty while environ is not.

#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "os/file_system.h"

namespace rocewatch {

inline constexpr unsigned long kProcessFlagKernelThread = 0x00200000;  // PF_KTHREAD
inline constexpr int kKthreaddPid = 2;

struct ProcessStat {
  int ppid = 0;
  unsigned long flags = 0;
};

// Fields 4 (ppid) and 9 (flags) of a <pid>/stat line "pid (comm) state ppid ... flags ...". The
// comm may hold spaces and ')': fields are counted from the last ')'. nullopt when malformed.
std::optional<ProcessStat> ParseProcessStat(std::string_view text);

bool IsKernelThreadStat(int pid, const ProcessStat& stat);

// Whether the process at <procfs_root>/<pid> is a kernel thread by its stat. False when stat
// cannot be read or parsed (a process that exited, a fixture without stat).
bool IsKernelThread(const FileSystem& fs, const std::string& procfs_root, int pid);

// Whether a failed read of a process's environ says "kernel thread" by itself (ESRCH).
bool IsKernelThreadEnvironError(const Status& status);

}  // namespace rocewatch
