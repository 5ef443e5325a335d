#pragma once
// The 16-rail node of the benchmarks as a real sysfs fixture tree on tmpfs (/dev/shm when it
// exists, else $TMPDIR or /tmp): RailNode(16), 255-slot GID tables, full counters and hw_counters.
// Written once per process on first use, removed at exit.

#include <string>

namespace rocewatch {

inline constexpr int kBenchRails = 16;

// The sysfs root of the tree (…/sys). Aborts the process if the tree cannot be written.
const std::string& RailNodeSysfsRoot();

}  // namespace rocewatch
