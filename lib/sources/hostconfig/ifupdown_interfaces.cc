#include "hostconfig/ifupdown_interfaces.h"

#include <arpa/inet.h>

#include <bit>
#include <cstdint>
#include <map>

#include "core/text.h"

namespace rocewatch {

InterfacesFile ParseInterfacesFile(std::string_view text) {
  InterfacesFile file;
  std::map<size_t, std::string> netmasks;  // by stanza
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
      file.ifaces.push_back({words[1], words[2], words[3], line_number, "", 0});
    } else if (keyword == "auto" || keyword.rfind("allow-", 0) == 0) {
      file.auto_names.insert(file.auto_names.end(), words.begin() + 1, words.end());
    } else if (keyword == "address" && words.size() >= 2 && !file.ifaces.empty()) {
      file.ifaces.back().address = words[1];
      file.ifaces.back().address_line = line_number;
    } else if (keyword == "netmask" && words.size() >= 2 && !file.ifaces.empty()) {
      netmasks[file.ifaces.size() - 1] = words[1];
    } else if (keyword == "source" && words.size() >= 2) {
      file.sources.push_back(words[1]);
    } else if (keyword == "source-directory" && words.size() >= 2) {
      file.source_directories.push_back(words[1]);
    }
  }
  // "address 10.0.0.2" with "netmask 255.255.255.0": 10.0.0.2/24.
  for (const auto& [index, netmask] : netmasks) {
    IfaceStanza& stanza = file.ifaces[index];
    if (stanza.family != "inet" || stanza.address.empty() ||
        stanza.address.find('/') != std::string::npos)
      continue;
    in_addr mask{};
    if (inet_pton(AF_INET, netmask.c_str(), &mask) != 1) continue;
    const uint32_t bits = ntohl(mask.s_addr);
    const int prefix = std::popcount(bits);
    if (bits != (prefix == 0 ? 0u : ~0u << (32 - prefix))) continue;  // not a contiguous mask
    stanza.address += "/" + std::to_string(prefix);
  }
  return file;
}

}  // namespace rocewatch
