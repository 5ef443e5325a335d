#include "collect/bundle_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "os/beneath_path.h"

namespace rocewatch {
namespace {

constexpr mode_t kDirMode = 0700;
constexpr mode_t kFileMode = 0600;

// "a/b/c" -> "a/b"; "c" -> "".
std::string Parent(const std::string& relative) {
  const size_t slash = relative.find_last_of('/');
  return slash == std::string::npos ? "" : relative.substr(0, slash);
}

std::string Base(const std::string& relative) {
  const size_t slash = relative.find_last_of('/');
  return slash == std::string::npos ? relative : relative.substr(slash + 1);
}

// An existing root: a directory (not a link), ours, empty. Takes ownership of nothing.
Status CheckExistingRoot(const std::string& root, int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return Status::FromErrno(errno, root);
  if (st.st_uid != ::geteuid())
    return Status::InvalidArgument(root + " exists and belongs to another user (uid " +
                                   std::to_string(st.st_uid) + "): give a new directory");
  const int listing = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing < 0) return Status::FromErrno(errno, root);
  DIR* dir = ::fdopendir(listing);
  if (dir == nullptr) {
    const int saved = errno;
    ::close(listing);
    return Status::FromErrno(saved, root);
  }
  bool empty = true;
  while (struct dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") empty = false;
  }
  ::closedir(dir);
  if (!empty)
    return Status::InvalidArgument(root + " exists and is not empty: give a new directory");
  return Status::Ok();
}

// Creates `root` (0700) or opens it if it exists and CheckExistingRoot accepts it; makes it 0700.
StatusOr<int> OpenRoot(const std::string& root) {
  // The parents are the operator's choice (they may be links); the root itself is never one.
  const bool created = ::mkdir(root.c_str(), kDirMode) == 0;
  if (!created && errno != EEXIST) return Status::FromErrno(errno, root);
  const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP || errno == ENOTDIR)
      return Status::InvalidArgument(root + " exists and is not a directory (or is a link)");
    return Status::FromErrno(errno, root);
  }
  Status usable = created ? Status::Ok() : CheckExistingRoot(root, fd);
  // Owner-only whatever it had: once ours and 0700, nobody else can plant an entry in it.
  if (usable.ok() && ::fchmod(fd, kDirMode) != 0) usable = Status::FromErrno(errno, root);
  if (!usable.ok()) {
    ::close(fd);
    return usable;
  }
  return fd;
}

}  // namespace

Status DirectoryBundleWriter::Open() {
  if (fd_ >= 0) return Status::Ok();
  if (!open_error_.ok()) return open_error_;
  StatusOr<int> fd = OpenRoot(root_);
  if (!fd.ok()) {
    open_error_ = fd.status();
    return open_error_;
  }
  fd_ = *fd;
  return Status::Ok();
}

DirectoryBundleWriter::~DirectoryBundleWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status DirectoryBundleWriter::EnsureDir(const std::string& relative) {
  if (Status opened = Open(); !opened.ok()) return opened;
  if (relative.empty() || made_.count(relative)) return Status::Ok();
  if (Status parent = EnsureDir(Parent(relative)); !parent.ok()) return parent;
  StatusOr<int> parent_fd =
      OpenBeneath(fd_, Parent(relative), O_PATH | O_DIRECTORY, BeneathLinks::kNone);
  if (!parent_fd.ok()) return Status::IoError(root_ + "/" + parent_fd.status().message());
  const std::string name = Base(relative);
  const bool made = ::mkdirat(*parent_fd, name.c_str(), kDirMode) == 0;
  const int saved = errno;
  ::close(*parent_fd);
  if (!made && saved != EEXIST) return Status::FromErrno(saved, root_ + "/" + relative);
  // What exists must be a directory reached without a link.
  StatusOr<int> dir = OpenBeneath(fd_, relative, O_PATH | O_DIRECTORY, BeneathLinks::kNone);
  if (!dir.ok()) return Status::IoError(root_ + "/" + dir.status().message());
  ::close(*dir);
  made_.insert(relative);
  return Status::Ok();
}

Status DirectoryBundleWriter::MakeDir(const std::string& relative) { return EnsureDir(relative); }

Status DirectoryBundleWriter::WriteFile(const std::string& relative, const std::string& content) {
  if (Status dir = EnsureDir(Parent(relative)); !dir.ok()) return dir;
  const std::string path = root_ + "/" + relative;
  StatusOr<int> fd = OpenBeneath(fd_, relative, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK,
                                 BeneathLinks::kNone, kFileMode);
  if (!fd.ok()) return Status::IoError(root_ + "/" + fd.status().message());
  // Only a regular file is written (not a FIFO or device someone made there: O_NONBLOCK keeps
  // the open of a FIFO from waiting for a reader).
  struct stat st;
  if (::fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(*fd);
    return Status::IoError(path + ": not a regular file");
  }
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(*fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = n < 0 ? errno : EIO;
      ::close(*fd);
      return Status::FromErrno(saved, path);
    }
    written += static_cast<size_t>(n);
  }
  if (::close(*fd) != 0) return Status::FromErrno(errno, path);
  return Status::Ok();
}

Status DirectoryBundleWriter::MakeLink(const std::string& relative, const std::string& target) {
  if (Status dir = EnsureDir(Parent(relative)); !dir.ok()) return dir;
  StatusOr<int> parent =
      OpenBeneath(fd_, Parent(relative), O_PATH | O_DIRECTORY, BeneathLinks::kNone);
  if (!parent.ok()) return Status::IoError(root_ + "/" + parent.status().message());
  const std::string name = Base(relative);
  // A link already there is replaced (unlinkat removes the link, never what it points at).
  if (::unlinkat(*parent, name.c_str(), 0) != 0 && errno != ENOENT) {
    const int saved = errno;
    ::close(*parent);
    return Status::FromErrno(saved, root_ + "/" + relative);
  }
  const bool linked = ::symlinkat(target.c_str(), *parent, name.c_str()) == 0;
  const int saved = errno;
  ::close(*parent);
  if (!linked) return Status::FromErrno(saved, root_ + "/" + relative);
  return Status::Ok();
}

}  // namespace rocewatch
