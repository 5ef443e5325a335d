#include "os/watched_file_system.h"

#include <cerrno>

namespace rocewatch {
namespace {

// A descriptor of the base file system, each read watched under the path it was opened as.
class WatchedOpenFile final : public OpenFile {
 public:
  WatchedOpenFile(const WatchedFileSystem& fs, std::string path, std::unique_ptr<OpenFile> file)
      : fs_(fs), path_(std::move(path)), file_(std::move(file)) {}

  Status ReadInto(std::string* content, size_t max_bytes) override {
    Status refused;
    if (!fs_.Begin(path_, &refused)) return refused;
    Status read = file_->ReadInto(content, max_bytes);
    fs_.End();
    return read;
  }

 private:
  const WatchedFileSystem& fs_;
  const std::string path_;
  const std::unique_ptr<OpenFile> file_;
};

}  // namespace

bool WatchedFileSystem::Begin(const std::string& path, Status* refused) const {
  if (watch_.Begin(source_, path)) return true;
  // ETIME ("Timer expired"): what read_failed and the unreadable slots print for it, rather than
  // the "malformed content" of an errno-less failure.
  *refused =
      Status::IoError(watch_.abandoned() ? "reading thread given up on (a read was stuck): " + path
                                         : "a read of this file is stuck in the kernel: " + path,
                      ETIME);
  return false;
}

StatusOr<std::string> WatchedFileSystem::ReadFile(const std::string& path, size_t max_bytes) const {
  Status refused;
  if (!Begin(path, &refused)) return refused;
  StatusOr<std::string> read = base_.ReadFile(path, max_bytes);
  End();
  return read;
}

StatusOr<std::vector<std::string>> WatchedFileSystem::ListDir(const std::string& path) const {
  Status refused;
  if (!Begin(path, &refused)) return refused;
  auto listed = base_.ListDir(path);
  End();
  return listed;
}

StatusOr<std::vector<std::string>> WatchedFileSystem::ListDirUnordered(
    const std::string& path) const {
  Status refused;
  if (!Begin(path, &refused)) return refused;
  auto listed = base_.ListDirUnordered(path);
  End();
  return listed;
}

StatusOr<std::string> WatchedFileSystem::ReadLink(const std::string& path) const {
  Status refused;
  if (!Begin(path, &refused)) return refused;
  StatusOr<std::string> target = base_.ReadLink(path);
  End();
  return target;
}

bool WatchedFileSystem::IsDirectory(const std::string& path) const {
  Status refused;
  if (!Begin(path, &refused)) return false;
  const bool is_directory = base_.IsDirectory(path);
  End();
  return is_directory;
}

StatusOr<std::unique_ptr<OpenFile>> WatchedFileSystem::Open(const std::string& path) const {
  Status refused;
  if (!Begin(path, &refused)) return refused;
  StatusOr<std::unique_ptr<OpenFile>> opened = base_.Open(path);
  End();
  if (!opened.ok()) return opened.status();
  return std::unique_ptr<OpenFile>(
      std::make_unique<WatchedOpenFile>(*this, path, std::move(opened).value()));
}

}  // namespace rocewatch
