#include "os/state_file_writer.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

namespace rocewatch {
namespace {

Status WriteAll(int fd, const std::string& content, const std::string& path) {
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, "write " + path);
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, "open " + dir);
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  if (rc != 0) return Status::FromErrno(saved, "fsync " + dir);
  return Status::Ok();
}

}  // namespace

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status EnsureDirectoryOf(const std::string& path) {
  const std::string dir = DirectoryOf(path);
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return Status::FromErrno(errno, "mkdir " + dir);
  return Status::Ok();
}

bool ProcessExists(pid_t pid) { return ::kill(pid, 0) == 0 || errno == EPERM; }

std::vector<std::string> RemoveStaleTemporaryFiles(const std::string& path,
                                                   const std::function<bool(pid_t)>& exists) {
  std::vector<std::string> removed;
  const size_t slash = path.find_last_of('/');
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp.";
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(DirectoryOf(path).c_str()), &::closedir);
  if (prefix.size() == 5 || !dir) return removed;
  const int dir_fd = ::dirfd(dir.get());
  while (const dirent* entry = ::readdir(dir.get())) {
    const std::string name = entry->d_name;
    if (name.size() <= prefix.size() || name.size() > prefix.size() + 10 ||
        name.compare(0, prefix.size(), prefix) != 0)
      continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits[0] == '0') continue;
    const long long pid = std::stoll(digits);
    if (pid > 0x7fffffff || pid == ::getpid() || exists(static_cast<pid_t>(pid))) continue;
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (::unlinkat(dir_fd, name.c_str(), 0) == 0) removed.push_back(name);
  }
  return removed;
}

Status PosixStateFileWriter::WriteAtomically(const std::string& path, const std::string& content) {
  if (path.empty()) return Status::InvalidArgument("empty state file path");
  if (Status made = EnsureDirectoryOf(path); !made.ok()) return made;
  const std::string dir = DirectoryOf(path);
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "create " + temp);
  Status status = WriteAll(fd, content, temp);
  if (status.ok() && ::fsync(fd) != 0) status = Status::FromErrno(errno, "fsync " + temp);
  if (::close(fd) != 0 && status.ok()) status = Status::FromErrno(errno, "close " + temp);
  if (status.ok() && ::rename(temp.c_str(), path.c_str()) != 0)
    status = Status::FromErrno(errno, "rename " + temp + " -> " + path);
  if (!status.ok()) {
    ::unlink(temp.c_str());
    return status;
  }
  return SyncDirectory(dir);
}

}  // namespace rocewatch
