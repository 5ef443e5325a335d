#pragma once
// The "[section] key=value" syntax shared by NetworkManager keyfiles (NetworkManager.conf, conf.d,
// *.nmconnection, /run/NetworkManager/devices/<ifindex>), systemd units (.network, networkd.conf)
// and systemd-networkd's runtime state files (/run/systemd/netif/links/<ifindex>: keys before
// any section). A pure parser: bytes in, entries out; nothing here reads a file.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

enum class IniDialect {
  kKeyfile,  // GLib keyfile (NetworkManager): '#' comments, no line continuation
  kSystemd,  // systemd unit syntax: '#' and ';' comments, a trailing '\' continues the line
};

struct IniEntry {
  std::string section;  // "" for keys before the first [section]
  std::string key;      // trimmed, case preserved
  std::string value;    // trimmed
  int line = 0;         // 1-based line of the key
};

struct IniFile {
  std::vector<IniEntry> entries;     // in file order
  std::vector<int> malformed_lines;  // lines that are neither comment, section nor key=value

  // The value of the last `key` in `section` (later assignments override earlier ones, as in both
  // dialects), nullopt when absent.
  std::optional<std::string> Last(std::string_view section, std::string_view key) const;
  // Names of the sections in file order, without duplicates.
  std::vector<std::string> Sections() const;
};

// Never fails: malformed lines are listed and skipped; NUL bytes and other binary content are
// kept as ordinary characters of keys and values.
IniFile ParseIniFile(std::string_view text, IniDialect dialect);

// Boolean spellings of both dialects: 1/yes/true/on and 0/no/false/off, case-insensitive.
std::optional<bool> ParseIniBool(std::string_view value);

}  // namespace rocewatch
