#include "support/write_in_place.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace rocewatch {

Status WriteFileInPlace(const std::string& path, const std::string& content) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) std::filesystem::remove_all(path, ec);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::FromErrno(errno, "cannot write " + path);
  ssize_t written = ::pwrite(fd, content.data(), content.size(), 0);
  int saved = errno;
  if (written == static_cast<ssize_t>(content.size()) &&
      ::ftruncate(fd, static_cast<off_t>(content.size())) != 0)
    saved = errno, written = -1;
  ::close(fd);
  if (written != static_cast<ssize_t>(content.size()))
    return Status::IoError("cannot write " + path + ": " + std::strerror(saved), saved);
  return Status::Ok();
}

}  // namespace rocewatch
