#include "nccl/nccl_library.h"

#include "core/text.h"
#include "nccl/nccl_version.h"

namespace rocewatch {
namespace {

constexpr std::string_view kLibrary = "libnccl.so";
constexpr std::string_view kWheelLibDir = "/nvidia/nccl/lib/";

}  // namespace

std::optional<NcclLibraryMapping> FindNcclLibrary(std::string_view maps) {
  for (std::string_view line : SplitLines(maps)) {
    // address perms offset dev inode path: the path is everything from the first '/' after the
    // five fields (it may hold spaces); " (deleted)" marks a replaced file.
    size_t slash = line.find(" /");
    if (slash == std::string_view::npos) continue;
    std::string_view path = Trim(line.substr(slash + 1));
    constexpr std::string_view kDeleted = " (deleted)";
    if (path.size() > kDeleted.size() && path.substr(path.size() - kDeleted.size()) == kDeleted)
      path.remove_suffix(kDeleted.size());
    size_t base_at = path.rfind('/');
    std::string_view base = path.substr(base_at + 1);
    if (base.rfind(kLibrary, 0) != 0) continue;
    std::string_view rest = base.substr(kLibrary.size());  // "", ".2", ".2.21.5"
    if (!rest.empty() && rest.front() != '.') continue;
    NcclLibraryMapping mapping;
    mapping.path = std::string(path);
    if (rest.size() > 1) {
      if (std::optional<NcclVersion> version = ParseNcclVersion(rest.substr(1)))
        mapping.version = version->ToString();
    }
    if (mapping.version.empty()) {
      size_t wheel = path.rfind(kWheelLibDir);
      if (wheel != std::string_view::npos && wheel + kWheelLibDir.size() == base_at + 1)
        mapping.site_packages = std::string(path.substr(0, wheel));
    }
    return mapping;
  }
  return std::nullopt;
}

std::optional<std::string> NcclVersionFromDistInfo(const std::vector<std::string>& entries) {
  constexpr std::string_view kPrefix = "nvidia_nccl";
  constexpr std::string_view kSuffix = ".dist-info";
  for (const std::string& entry : entries) {
    std::string_view name = entry;
    if (name.rfind(kPrefix, 0) != 0 || name.size() <= kSuffix.size() ||
        name.substr(name.size() - kSuffix.size()) != kSuffix)
      continue;
    name.remove_suffix(kSuffix.size());
    size_t dash = name.rfind('-');
    if (dash == std::string_view::npos) continue;
    if (std::optional<NcclVersion> version = ParseNcclVersion(name.substr(dash + 1)))
      return version->ToString();
  }
  return std::nullopt;
}

}  // namespace rocewatch
