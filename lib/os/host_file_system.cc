#include "os/host_file_system.h"

#include <utility>

#include "core/terminal_text.h"

namespace rocewatch {
namespace {

// True if `path` is below (or is) `dir`, an absolute directory such as "/etc".
bool Under(std::string_view path, std::string_view dir) {
  return path.substr(0, dir.size()) == dir &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

bool HasDotDotComponent(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view component = path.substr(start, end - start);
    if (component == "..") return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

HostFileSystem::HostFileSystem(const FileSystem& base, HostPaths paths)
    : base_(base), paths_(std::move(paths)) {}

StatusOr<std::string> HostFileSystem::Locate(std::string_view host_path) const {
  if (host_path.empty() || host_path[0] != '/' || HasDotDotComponent(host_path))
    return Status::InvalidArgument("not an absolute host path without \"..\": " +
                                   TerminalSafe(host_path));
  struct Mount {
    std::string_view dir;
    const std::string& root;
  };
  for (const Mount& m : {Mount{"/etc", paths_.etc_root}, Mount{"/run", paths_.run_root},
                         Mount{"/proc", paths_.procfs_root}, Mount{"/sys", paths_.sysfs_root}})
    if (Under(host_path, m.dir)) return m.root + std::string(host_path.substr(m.dir.size()));
  if (HostPaths::IsLiveRoot(paths_.host_root)) return std::string(host_path);
  return JoinPath(paths_.host_root, std::string(host_path));
}

StatusOr<std::string> HostFileSystem::ReadFile(const std::string& path, size_t max_bytes) const {
  StatusOr<std::string> located = Locate(path);
  if (!located.ok()) return located.status();
  return base_.ReadFile(*located, max_bytes);
}

StatusOr<std::vector<std::string>> HostFileSystem::ListDir(const std::string& path) const {
  StatusOr<std::string> located = Locate(path);
  if (!located.ok()) return located.status();
  return base_.ListDir(*located);
}

StatusOr<std::vector<std::string>> HostFileSystem::ListDirUnordered(const std::string& path) const {
  StatusOr<std::string> located = Locate(path);
  if (!located.ok()) return located.status();
  return base_.ListDirUnordered(*located);
}

StatusOr<std::string> HostFileSystem::ReadLink(const std::string& path) const {
  StatusOr<std::string> located = Locate(path);
  if (!located.ok()) return located.status();
  return base_.ReadLink(*located);
}

bool HostFileSystem::IsDirectory(const std::string& path) const {
  StatusOr<std::string> located = Locate(path);
  return located.ok() && base_.IsDirectory(*located);
}

StatusOr<std::unique_ptr<OpenFile>> HostFileSystem::Open(const std::string& path) const {
  StatusOr<std::string> located = Locate(path);
  if (!located.ok()) return located.status();
  return base_.Open(*located);
}

}  // namespace rocewatch
