#include "hostconfig/ini_file.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace rocewatch {

std::optional<std::string> IniFile::Last(std::string_view section, std::string_view key) const {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->section == section && it->key == key) return it->value;
  return std::nullopt;
}

std::vector<std::string> IniFile::Sections() const {
  std::vector<std::string> names;
  for (const IniEntry& e : entries)
    if (std::find(names.begin(), names.end(), e.section) == names.end()) names.push_back(e.section);
  return names;
}

IniFile ParseIniFile(std::string_view text, IniDialect dialect) {
  IniFile file;
  std::string section;
  std::vector<std::string_view> lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    int line_number = static_cast<int>(i) + 1;
    std::string line(Trim(lines[i]));
    if (line.empty() || line[0] == '#' || (dialect == IniDialect::kSystemd && line[0] == ';'))
      continue;
    if (dialect == IniDialect::kSystemd) {
      while (!line.empty() && line.back() == '\\' && i + 1 < lines.size()) {
        line.pop_back();
        line += ' ';
        line += Trim(lines[++i]);
      }
    }
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 2) {
        file.malformed_lines.push_back(line_number);
        continue;
      }
      section = std::string(Trim(std::string_view(line).substr(1, line.size() - 2)));
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      file.malformed_lines.push_back(line_number);
      continue;
    }
    std::string_view view(line);
    file.entries.push_back({section, std::string(Trim(view.substr(0, eq))),
                            std::string(Trim(view.substr(eq + 1))), line_number});
  }
  return file;
}

std::optional<bool> ParseIniBool(std::string_view value) {
  std::string lower = ToLower(Trim(value));
  if (lower == "1" || lower == "yes" || lower == "true" || lower == "on") return true;
  if (lower == "0" || lower == "no" || lower == "false" || lower == "off") return false;
  return std::nullopt;
}

}  // namespace rocewatch
