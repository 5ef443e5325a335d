#pragma once
// The kernel boot id (<procfs root>/sys/kernel/random/boot_id): what tells one boot of one host
// from another. The state file is stamped with it; the daemon's findings carry it, so that
// `diagnose --host-root` of another host never merges a local daemon's findings.

#include <string>

#include "os/file_system.h"

namespace rocewatch {

// The boot id without its newline, or "" when it cannot be read (never an error: callers treat an
// unknown boot id as "cannot tell").
std::string ReadBootId(const FileSystem& fs, const std::string& procfs_root);

}  // namespace rocewatch
