#pragma once
// The processes of the host, from <procfs>/<pid>/comm, read through FileSystem so that a fixture
// procfs works the same as the real one. Used to tell whether NetworkManager or systemd-networkd
// runs, and as the list of pids the NCCL scan visits.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

struct ProcessEntry {
  int pid = 0;
  std::string comm;  // /proc/<pid>/comm without the newline (the kernel truncates it to 15 chars)
};

// Every numeric entry of procfs_root, ascending pid. A process whose comm cannot be read (it
// exited meanwhile) is listed with an empty comm. An unreadable procfs gives an empty list.
std::vector<ProcessEntry> ListProcesses(const FileSystem& fs, const std::string& procfs_root);

// The first process whose comm equals `comm`, nullopt when none.
std::optional<ProcessEntry> FindProcess(const std::vector<ProcessEntry>& processes,
                                        std::string_view comm);

}  // namespace rocewatch
