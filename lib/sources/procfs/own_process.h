#pragma once
// rocewatch's own processes. The daemon and diagnose hold every RDMA device open (GID queries
// through verbs, async events): that makes them neither consumers of the RDMA network nor jobs
// whose NCCL settings matter. One is told by its pid (the calling process, <procfs>/self) or,
// for rocewatch in another pid namespace (the daemon's pod seen from the host, or the other way
// round), by its command name.

#include <string>
#include <string_view>

#include "os/file_system.h"

namespace rocewatch {

// The pid <procfs>/self names; 0 when it cannot be read (a bundle has none).
int SelfPid(const FileSystem& fs, const std::string& procfs_root);

// True for the calling process (`self_pid`) and for any process whose comm is "rocewatch".
bool IsRocewatchProcess(int pid, std::string_view comm, int self_pid);

}  // namespace rocewatch
