#include "hostconfig/ifupdown_interfaces.h"

#include "core/text.h"

namespace rocewatch {

InterfacesFile ParseInterfacesFile(std::string_view text) {
  InterfacesFile file;
  std::vector<std::string_view> lines = SplitLines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    int line_number = static_cast<int>(i) + 1;
    std::string line(Trim(lines[i]));
    while (!line.empty() && line.back() == '\\' && i + 1 < lines.size()) {
      line.pop_back();
      line += ' ';
      line += Trim(lines[++i]);
    }
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> words = SplitFields(line, " \t");
    const std::string& keyword = words[0];
    if (keyword == "iface") {
      if (words.size() < 4) {
        file.malformed_lines.push_back(line_number);
        continue;
      }
      file.ifaces.push_back({words[1], words[2], words[3], line_number});
    } else if (keyword == "auto" || keyword.rfind("allow-", 0) == 0) {
      file.auto_names.insert(file.auto_names.end(), words.begin() + 1, words.end());
    } else if (keyword == "source" && words.size() >= 2) {
      file.sources.push_back(words[1]);
    } else if (keyword == "source-directory" && words.size() >= 2) {
      file.source_directories.push_back(words[1]);
    }
  }
  return file;
}

}  // namespace rocewatch
