#include "os/boot_id.h"

namespace rocewatch {

std::string ReadBootId(const FileSystem& fs, const std::string& procfs_root) {
  StatusOr<std::string> text = fs.ReadFile(JoinPath(procfs_root, "sys/kernel/random/boot_id"), 256);
  if (!text.ok()) return "";
  std::string id = *text;
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

}  // namespace rocewatch
