#pragma once
// Whether a failed read of /proc/<pid>/... means the process is gone rather than unreadable. A
// process can exit between the listing of procfs and the read of its files; its reads then fail
// with ENOENT (the directory is gone) or ESRCH (the task is exiting or a zombie, its files still
// listed). Neither is a failure of the procfs source. ESRCH is also what the kernel answers for a
// kernel thread's environ: a process with no user space, which holds no device either.

#include "core/status.h"

namespace rocewatch {

bool ProcessGone(const Status& status);

}  // namespace rocewatch
