#include "hostconfig/config_files.h"

#include <algorithm>
#include <map>

#include "core/natural_less.h"

namespace rocewatch {

std::vector<std::string> ListHostConfigFiles(const FileSystem& host, const std::string& dir,
                                             std::string_view suffix) {
  std::vector<std::string> files;
  StatusOr<std::vector<std::string>> names = host.ListDir(dir);
  if (!names.ok()) return files;
  for (const std::string& name : *names) {
    if (name.size() < suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix.data(), suffix.size()) != 0)
      continue;
    files.push_back(JoinPath(dir, name));
  }
  return files;
}

std::optional<IniFile> ReadHostIni(const FileSystem& host, std::string_view absolute,
                                   IniDialect dialect) {
  StatusOr<std::string> text = host.ReadFile(std::string(absolute), kMaxConfigFileBytes);
  if (!text.ok()) return std::nullopt;
  return ParseIniFile(*text, dialect);
}

std::vector<std::string> DropInFiles(const FileSystem& host,
                                     const std::vector<std::string>& dirs_low_to_high,
                                     std::string_view suffix) {
  std::map<std::string, std::string, bool (*)(const std::string&, const std::string&)> by_name(
      NaturalLess);
  for (const std::string& dir : dirs_low_to_high)
    for (const std::string& file : ListHostConfigFiles(host, dir, suffix))
      by_name[file.substr(file.rfind('/') + 1)] = file;
  std::vector<std::string> files;
  for (const auto& [name, file] : by_name) files.push_back(file);
  return files;
}

}  // namespace rocewatch
