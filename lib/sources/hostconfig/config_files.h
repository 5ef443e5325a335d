#pragma once
// Finding and reading the host's configuration files under --host-root. All reads go through
// FileSystem; a missing or unreadable file is "absent", never an error.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hostconfig/ini_file.h"
#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

// Configuration files are small; anything beyond this is cut (and parses as far as it goes).
inline constexpr size_t kMaxConfigFileBytes = 1024 * 1024;

// Where an absolute host path ("/etc/...", "/run/...", "/usr/...") is under the host root.
std::string HostFile(const HostPaths& paths, std::string_view absolute);

// Host paths (absolute, as the host sees them) of the entries of `dir` whose names end with
// `suffix`, in natural order. Empty when the directory is absent.
std::vector<std::string> ListHostConfigFiles(const FileSystem& fs, const HostPaths& paths,
                                             const std::string& dir, std::string_view suffix);

// The parsed file at host path `absolute`, nullopt when it cannot be read.
std::optional<IniFile> ReadHostIni(const FileSystem& fs, const HostPaths& paths,
                                   std::string_view absolute, IniDialect dialect);

// Drop-in order of systemd and NetworkManager: files of later directories shadow files of the
// same name in earlier ones; the survivors are taken in order of their names.
std::vector<std::string> DropInFiles(const FileSystem& fs, const HostPaths& paths,
                                     const std::vector<std::string>& dirs_low_to_high,
                                     std::string_view suffix);

}  // namespace rocewatch
