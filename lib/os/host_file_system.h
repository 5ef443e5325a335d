#pragma once
// The host's files by the paths the host itself gives them ("/etc/NetworkManager/...",
// "/proc/sys/net/...", "/sys/class/net/..."), read through another FileSystem under the roots of
// HostPaths (--host-root, --sysfs-root): a reader of host configuration names the file as an
// operator would, and never joins roots itself. Where a path is read: "/etc" under etc_root,
// "/run" under run_root, "/proc" under procfs_root, "/sys" under sysfs_root, anything else under
// host_root.
//
// A path that is not absolute, or that has a ".." component, is refused (InvalidArgument;
// IsDirectory is false): an include or a link target written in a host file (or in a support
// bundle) could otherwise name a file outside the roots. ReadLink returns the target as stored, a
// host path the caller may read again through this object.
//
// Threading: as the FileSystem below. Lifetime: `base` outlives this object.

#include <string>
#include <string_view>

#include "os/file_system.h"
#include "os/host_paths.h"

namespace rocewatch {

class HostFileSystem final : public FileSystem {
 public:
  HostFileSystem(const FileSystem& base, HostPaths paths);

  // Where `host_path` is read, or InvalidArgument (the reason in one line) if it is refused.
  StatusOr<std::string> Locate(std::string_view host_path) const;

  StatusOr<std::string> ReadFile(const std::string& path,
                                 size_t max_bytes = kDefaultMaxRead) const override;
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override;
  StatusOr<std::vector<std::string>> ListDirUnordered(const std::string& path) const override;
  StatusOr<std::string> ReadLink(const std::string& path) const override;
  bool IsDirectory(const std::string& path) const override;
  StatusOr<std::unique_ptr<OpenFile>> Open(const std::string& path) const override;

  const HostPaths& paths() const { return paths_; }

 private:
  const FileSystem& base_;
  const HostPaths paths_;
};

}  // namespace rocewatch
