#include "os/state_file_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

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
