#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/natural_less.h"
#include "os/beneath_path.h"
#include "os/file_system.h"

namespace rocewatch {
namespace {

// Reads the file a FileSystem names, through ReadFile, on every ReadInto.
class PathReadingFile final : public OpenFile {
 public:
  PathReadingFile(const FileSystem& fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  Status ReadInto(std::string* content, size_t max_bytes) override {
    StatusOr<std::string> read = fs_.ReadFile(path_, max_bytes);
    if (!read.ok()) return read.status();
    *content = std::move(*read);
    return Status::Ok();
  }

 private:
  const FileSystem& fs_;
  std::string path_;
};

// Holds no copy of its path (a 16-rail node keeps thousands of these): errors name the file by its
// descriptor; AttributeReader names the path.
class DescriptorFile final : public OpenFile {
 public:
  explicit DescriptorFile(int fd) : fd_(fd) {}
  ~DescriptorFile() override { ::close(fd_); }
  DescriptorFile(const DescriptorFile&) = delete;
  DescriptorFile& operator=(const DescriptorFile&) = delete;

  Status ReadInto(std::string* content, size_t max_bytes) override {
    // A sysfs attribute fits a page and is served whole by the first read at offset 0; a longer
    // regular file takes further reads from where the last one ended.
    char buffer[4096];
    content->clear();
    while (content->size() < max_bytes) {
      const size_t want = std::min(sizeof(buffer), max_bytes - content->size());
      ssize_t n = ::pread(fd_, buffer, want, static_cast<off_t>(content->size()));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno(errno, "read of descriptor " + std::to_string(fd_));
      }
      content->append(buffer, static_cast<size_t>(n));
      if (static_cast<size_t>(n) < want) break;
    }
    return Status::Ok();
  }

 private:
  int fd_;
};

}  // namespace

StatusOr<std::unique_ptr<OpenFile>> FileSystem::Open(const std::string& path) const {
  return std::unique_ptr<OpenFile>(std::make_unique<PathReadingFile>(*this, path));
}

PosixFileSystem::~PosixFileSystem() {
  for (const Root& root : roots_)
    if (root.fd >= 0) ::close(root.fd);
}

void PosixFileSystem::ConfineBeneath(const std::vector<std::string>& roots,
                                     RefusedReads* refusals) {
  refusals_ = refusals;
  for (std::string path : roots) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    if (path.empty() || path == "/") continue;  // everything is below "/": nothing to confine
    // The root itself is the operator's choice: it is opened as given, links included.
    const int fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    roots_.push_back(Root{std::move(path), fd});
  }
  // The deepest root first: /bundle/sys (--sysfs-root) before /bundle.
  std::sort(roots_.begin(), roots_.end(),
            [](const Root& a, const Root& b) { return a.path.size() > b.path.size(); });
}

StatusOr<int> PosixFileSystem::OpenPath(const std::string& path, int flags) const {
  for (const Root& root : roots_) {
    if (path.compare(0, root.path.size(), root.path) != 0) continue;
    if (path.size() > root.path.size() && path[root.path.size()] != '/') continue;
    int root_fd = root.fd;
    if (root_fd < 0) root_fd = ::open(root.path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) return Status::FromErrno(errno, root.path);
    const std::string relative = path.substr(std::min(path.size(), root.path.size() + 1));
    StatusOr<int> fd = OpenBeneath(root_fd, relative, flags, BeneathLinks::kFollowInside);
    if (root_fd != root.fd) ::close(root_fd);
    if (fd.ok()) return fd;
    if (!IsRefusedPath(fd.status())) return Status::FromErrno(fd.status().sys_errno(), path);
    if (refusals_ != nullptr) refusals_->Note(path);
    // The message names `relative`; the caller knows the file by its whole path.
    return Status::IoError(path + fd.status().message().substr(relative.size()),
                           fd.status().sys_errno());
  }
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path);
  return fd;
}

StatusOr<std::unique_ptr<OpenFile>> PosixFileSystem::Open(const std::string& path) const {
  StatusOr<int> fd = OpenPath(path, O_RDONLY);
  if (!fd.ok()) return fd.status();
  return std::unique_ptr<OpenFile>(std::make_unique<DescriptorFile>(*fd));
}

StatusOr<std::string> PosixFileSystem::ReadFile(const std::string& path, size_t max_bytes) const {
  StatusOr<int> opened = OpenPath(path, O_RDONLY);
  if (!opened.ok()) return opened.status();
  const int fd = *opened;
  std::string content;
  char buffer[4096];
  while (content.size() < max_bytes) {
    size_t want = std::min(sizeof(buffer), max_bytes - content.size());
    ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      return Status::FromErrno(saved, path);
    }
    if (n == 0) break;
    content.append(buffer, static_cast<size_t>(n));
    if (options_.stop_at_short_read && static_cast<size_t>(n) < want) break;
  }
  ::close(fd);
  return content;
}

StatusOr<std::vector<std::string>> PosixFileSystem::ListDir(const std::string& path) const {
  StatusOr<std::vector<std::string>> names = ListDirUnordered(path);
  if (names.ok()) std::sort(names->begin(), names->end(), NaturalLess);
  return names;
}

StatusOr<std::vector<std::string>> PosixFileSystem::ListDirUnordered(
    const std::string& path) const {
  StatusOr<int> fd = OpenPath(path, O_RDONLY | O_DIRECTORY);
  if (!fd.ok()) return fd.status();
  DIR* dir = ::fdopendir(*fd);
  if (dir == nullptr) {
    const int saved = errno;
    ::close(*fd);
    return Status::FromErrno(saved, path);
  }
  std::vector<std::string> names;
  while (true) {
    errno = 0;
    struct dirent* entry = ::readdir(dir);
    if (entry == nullptr) break;
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    names.push_back(std::move(name));
  }
  int saved = errno;
  ::closedir(dir);
  if (saved != 0) return Status::FromErrno(saved, path);
  return names;
}

StatusOr<std::string> PosixFileSystem::ReadLink(const std::string& path) const {
  char buffer[4096];
  if (roots_.empty()) {
    ssize_t n = ::readlink(path.c_str(), buffer, sizeof(buffer));
    if (n < 0) return Status::FromErrno(errno, path);
    return std::string(buffer, static_cast<size_t>(n));
  }
  // The link itself is read, not followed: its directory is what must stay below the root.
  const size_t slash = path.find_last_of('/');
  const std::string parent = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  StatusOr<int> dir = OpenPath(parent.empty() ? "/" : parent, O_PATH | O_DIRECTORY);
  if (!dir.ok()) return dir.status();
  ssize_t n = ::readlinkat(*dir, name.c_str(), buffer, sizeof(buffer));
  const int saved = errno;
  ::close(*dir);
  if (n < 0) return Status::FromErrno(saved, path);
  return std::string(buffer, static_cast<size_t>(n));
}

bool PosixFileSystem::IsDirectory(const std::string& path) const {
  struct stat st;
  if (roots_.empty()) return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  StatusOr<int> fd = OpenPath(path, O_PATH);
  if (!fd.ok()) return false;
  const bool directory = ::fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(*fd);
  return directory;
}

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  bool a_slash = a.back() == '/';
  bool b_slash = b.front() == '/';
  if (a_slash && b_slash) return a + b.substr(1);
  if (a_slash || b_slash) return a + b;
  return a + "/" + b;
}

}  // namespace rocewatch
