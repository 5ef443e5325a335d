#include "os/beneath_path.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <deque>
#include <vector>

namespace rocewatch {
namespace {

// Links followed in one resolution before giving up, as the kernel does (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

Status Refused(const std::string& relative, int sys_errno) {
  const char* why = sys_errno == EXDEV ? "refused: it leads out of the root through a link"
                                       : "refused: a symbolic link where none is followed";
  return Status::IoError(relative + ": " + why, sys_errno);
}

Status Failed(const std::string& relative, int sys_errno) {
  if (sys_errno == EXDEV || sys_errno == ELOOP) return Refused(relative, sys_errno);
  return Status::FromErrno(sys_errno, relative);
}

std::deque<std::string> Components(const std::string& path) {
  std::deque<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (end > start) parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

// Closes the descriptors of the walk's directories, all but the root's (not ours).
class DirectoryStack {
 public:
  explicit DirectoryStack(int root_fd) { fds_.push_back(root_fd); }
  ~DirectoryStack() {
    for (size_t i = 1; i < fds_.size(); ++i) ::close(fds_[i]);
  }
  DirectoryStack(const DirectoryStack&) = delete;
  DirectoryStack& operator=(const DirectoryStack&) = delete;
  int top() const { return fds_.back(); }
  bool at_root() const { return fds_.size() == 1; }
  void Push(int fd) { fds_.push_back(fd); }
  void Pop() {
    ::close(fds_.back());
    fds_.pop_back();
  }

 private:
  std::vector<int> fds_;
};

// The user-space resolver: one component at a time, each opened O_NOFOLLOW below the last; a
// link is read and its target spliced in front of what remains (kFollowInside), where an absolute
// target or a ".." at the root is refused.
StatusOr<int> OpenInUserSpace(int root_fd, const std::string& relative, int flags,
                              BeneathLinks links, unsigned mode) {
  std::deque<std::string> remaining = Components(relative);
  DirectoryStack dirs(root_fd);
  int links_followed = 0;
  while (!remaining.empty()) {
    const std::string name = remaining.front();
    remaining.pop_front();
    if (name == ".") continue;
    if (name == "..") {
      if (dirs.at_root()) return Refused(relative, EXDEV);
      dirs.Pop();
      continue;
    }
    const bool last = remaining.empty();
    char target[4096];
    const ssize_t length = ::readlinkat(dirs.top(), name.c_str(), target, sizeof(target));
    if (length >= 0) {
      if (links == BeneathLinks::kNone) return Refused(relative, ELOOP);
      if (++links_followed > kMaxLinks) return Failed(relative, ELOOP);
      const std::string link(target, static_cast<size_t>(length));
      if (link.empty() || link.front() == '/') return Refused(relative, EXDEV);
      std::deque<std::string> spliced = Components(link);
      remaining.insert(remaining.begin(), spliced.begin(), spliced.end());
      continue;
    }
    if (errno != EINVAL && !(last && errno == ENOENT && (flags & O_CREAT))) {
      return Failed(relative, errno);
    }
    const int step_flags = last ? flags : O_PATH | O_DIRECTORY;
    const int fd = ::openat(dirs.top(), name.c_str(), step_flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) return Failed(relative, errno);
    if (last) return fd;
    dirs.Push(fd);
  }
  // The root itself ("" or only "." components).
  const int fd = ::openat(dirs.top(), ".", flags | O_CLOEXEC, mode);
  if (fd < 0) return Failed(relative, errno);
  return fd;
}

}  // namespace

StatusOr<int> OpenBeneath(int root_fd, const std::string& relative, int flags, BeneathLinks links,
                          unsigned mode, BeneathResolver resolver) {
  // Whether this kernel has openat2, learnt from the first call.
  static std::atomic<bool> kernel_lacks_openat2{false};
  if (resolver == BeneathResolver::kKernelIfAvailable && !kernel_lacks_openat2.load()) {
    struct open_how how = {};
    how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    if (links == BeneathLinks::kNone) how.resolve |= RESOLVE_NO_SYMLINKS;
    const std::string path = relative.empty() ? "." : relative;
    // EAGAIN: a concurrent rename or mount upset the resolution; it is retried a few times.
    for (int attempt = 0;; ++attempt) {
      const long fd = ::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof(how));
      if (fd >= 0) return static_cast<int>(fd);
      if (errno == EINTR || (errno == EAGAIN && attempt < 8)) continue;
      if (errno != ENOSYS) return Failed(relative, errno);
      kernel_lacks_openat2.store(true);
      break;
    }
  }
  return OpenInUserSpace(root_fd, relative, flags, links, mode);
}

bool IsRefusedPath(const Status& status) {
  return status.code() == StatusCode::kIoError &&
         (status.sys_errno() == EXDEV || status.sys_errno() == ELOOP);
}

}  // namespace rocewatch
