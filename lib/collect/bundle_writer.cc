#include "collect/bundle_writer.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace rocewatch {
namespace {

namespace fs = std::filesystem;

Status Failed(const fs::path& path, const std::error_code& error) {
  return Status::IoError(path.string() + ": " + error.message(), error.value());
}

}  // namespace

Status DirectoryBundleWriter::EnsureDir(const std::string& path) {
  if (made_.count(path)) return Status::Ok();
  std::error_code error;
  fs::create_directories(path, error);
  if (error) return Failed(path, error);
  made_.insert(path);
  return Status::Ok();
}

Status DirectoryBundleWriter::MakeDir(const std::string& relative) {
  return EnsureDir((fs::path(root_) / relative).string());
}

Status DirectoryBundleWriter::WriteFile(const std::string& relative, const std::string& content) {
  const fs::path path = fs::path(root_) / relative;
  if (Status dir = EnsureDir(path.parent_path().string()); !dir.ok()) return dir;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) return Status::IoError(path.string() + ": write failed");
  return Status::Ok();
}

Status DirectoryBundleWriter::MakeLink(const std::string& relative, const std::string& target) {
  const fs::path path = fs::path(root_) / relative;
  if (Status dir = EnsureDir(path.parent_path().string()); !dir.ok()) return dir;
  std::error_code error;
  fs::remove(path, error);
  fs::create_symlink(target, path, error);
  if (error) return Failed(path, error);
  return Status::Ok();
}

}  // namespace rocewatch
