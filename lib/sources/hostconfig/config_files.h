#pragma once
// Finding and reading the host's configuration files. Every path is the host's own ("/etc/...",
// "/run/...", "/usr/...") and `host` reads it where it is (a HostFileSystem, os/host_file_system.h,
// under --host-root); a missing, unreadable or refused file is "absent", never an error.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hostconfig/ini_file.h"
#include "os/file_system.h"

namespace rocewatch {

// Configuration files are small; anything beyond this is cut (and parses as far as it goes).
inline constexpr size_t kMaxConfigFileBytes = 1024 * 1024;

// Host paths (absolute, as the host sees them) of the entries of `dir` whose names end with
// `suffix`, in natural order. Empty when the directory is absent.
std::vector<std::string> ListHostConfigFiles(const FileSystem& host, const std::string& dir,
                                             std::string_view suffix);

// The parsed file at host path `absolute`, nullopt when it cannot be read.
std::optional<IniFile> ReadHostIni(const FileSystem& host, std::string_view absolute,
                                   IniDialect dialect);

// Drop-in order of systemd and NetworkManager: files of later directories shadow files of the
// same name in earlier ones; the survivors are taken in order of their names.
std::vector<std::string> DropInFiles(const FileSystem& host,
                                     const std::vector<std::string>& dirs_low_to_high,
                                     std::string_view suffix);

}  // namespace rocewatch
