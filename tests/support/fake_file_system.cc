#include "support/fake_file_system.h"

#include <algorithm>
#include <cerrno>

#include "core/natural_less.h"

namespace rocewatch {

std::string NormalizeFakePath(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out += c;
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out.empty() || out.front() != '/') out.insert(out.begin(), '/');
  return out;
}

namespace {
std::string Parent(const std::string& normalized) {
  size_t slash = normalized.rfind('/');
  return slash == 0 ? "/" : normalized.substr(0, slash);
}
bool IsUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}
}  // namespace

void FakeFileSystem::AddDirLocked(const std::string& normalized) {
  for (std::string dir = normalized;; dir = Parent(dir)) {
    dirs_.insert(dir);
    if (dir == "/") break;
  }
}

void FakeFileSystem::AddFile(const std::string& path, const std::string& content) {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  AddDirLocked(Parent(p));
  files_[p] = content;
}

void FakeFileSystem::AddDir(const std::string& path) {
  std::lock_guard lock(mu_);
  AddDirLocked(NormalizeFakePath(path));
}

void FakeFileSystem::AddLink(const std::string& path, const std::string& target) {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  AddDirLocked(Parent(p));
  links_[p] = target;
}

void FakeFileSystem::Remove(const std::string& path) {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  auto doomed = [&](const std::string& key) { return key == p || IsUnder(key, p); };
  std::erase_if(files_, [&](const auto& entry) { return doomed(entry.first); });
  std::erase_if(links_, [&](const auto& entry) { return doomed(entry.first); });
  std::erase_if(dirs_, doomed);
}

void FakeFileSystem::FailReads(const std::string& path, int sys_errno) {
  std::lock_guard lock(mu_);
  failures_[NormalizeFakePath(path)] = sys_errno;
}

void FakeFileSystem::ClearFailures() {
  std::lock_guard lock(mu_);
  failures_.clear();
}

std::vector<std::string> FakeFileSystem::files_read() const {
  std::lock_guard lock(mu_);
  return files_read_;
}

size_t FakeFileSystem::ReadCount(const std::string& path) const {
  std::lock_guard lock(mu_);
  return static_cast<size_t>(
      std::count(files_read_.begin(), files_read_.end(), NormalizeFakePath(path)));
}

void FakeFileSystem::ClearFilesRead() {
  std::lock_guard lock(mu_);
  files_read_.clear();
}

int FakeFileSystem::FailureLocked(const std::string& normalized) const {
  auto it = failures_.find(normalized);
  return it == failures_.end() ? 0 : it->second;
}

StatusOr<std::string> FakeFileSystem::ReadFile(const std::string& path, size_t max_bytes) const {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  files_read_.push_back(p);
  if (int err = FailureLocked(p)) return Status::FromErrno(err, path);
  auto it = files_.find(p);
  if (it != files_.end()) return it->second.substr(0, max_bytes);
  if (dirs_.count(p)) return Status::FromErrno(EISDIR, path);
  return Status::FromErrno(ENOENT, path);
}

StatusOr<std::vector<std::string>> FakeFileSystem::ListDir(const std::string& path) const {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  if (int err = FailureLocked(p)) return Status::FromErrno(err, path);
  if (!dirs_.count(p)) {
    return Status::FromErrno(files_.count(p) || links_.count(p) ? ENOTDIR : ENOENT, path);
  }
  // Keys below p are contiguous in map order, starting at p + "/".
  const std::string prefix = p == "/" ? "/" : p + "/";
  std::set<std::string> names;
  auto add_children = [&](const auto& container, auto key_of) {
    for (auto it = container.lower_bound(prefix); it != container.end(); ++it) {
      const std::string& key = key_of(*it);
      if (key.compare(0, prefix.size(), prefix) != 0) break;
      if (key.size() == prefix.size()) continue;
      names.insert(key.substr(prefix.size(), key.find('/', prefix.size()) - prefix.size()));
    }
  };
  auto first = [](const auto& entry) -> const std::string& { return entry.first; };
  auto self = [](const std::string& key) -> const std::string& { return key; };
  add_children(files_, first);
  add_children(dirs_, self);
  add_children(links_, first);
  std::vector<std::string> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end(), NaturalLess);
  return sorted;
}

StatusOr<std::string> FakeFileSystem::ReadLink(const std::string& path) const {
  std::lock_guard lock(mu_);
  std::string p = NormalizeFakePath(path);
  if (int err = FailureLocked(p)) return Status::FromErrno(err, path);
  auto it = links_.find(p);
  if (it != links_.end()) return it->second;
  if (files_.count(p) || dirs_.count(p)) return Status::FromErrno(EINVAL, path);
  return Status::FromErrno(ENOENT, path);
}

bool FakeFileSystem::IsDirectory(const std::string& path) const {
  std::lock_guard lock(mu_);
  return dirs_.count(NormalizeFakePath(path)) > 0;
}

}  // namespace rocewatch
