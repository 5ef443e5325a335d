#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/natural_less.h"
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

StatusOr<std::unique_ptr<OpenFile>> PosixFileSystem::Open(const std::string& path) const {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path);
  return std::unique_ptr<OpenFile>(std::make_unique<DescriptorFile>(fd));
}

StatusOr<std::string> PosixFileSystem::ReadFile(const std::string& path, size_t max_bytes) const {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path);
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
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return Status::FromErrno(errno, path);
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
  ssize_t n = ::readlink(path.c_str(), buffer, sizeof(buffer));
  if (n < 0) return Status::FromErrno(errno, path);
  return std::string(buffer, static_cast<size_t>(n));
}

bool PosixFileSystem::IsDirectory(const std::string& path) const {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
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
