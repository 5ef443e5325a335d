#include "hostconfig/nm_device_spec.h"

#include <cctype>
#include <string>

#include "core/text.h"

namespace rocewatch {
namespace {

bool LooksLikeMac(std::string_view text) {
  if (text.size() != 17) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i % 3 == 2) {
      if (text[i] != ':' && text[i] != '-') return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(text[i]))) {
      return false;
    }
  }
  return true;
}

bool SameMac(std::string_view a, std::string_view b) {
  std::string x = ToLower(a), y = ToLower(b);
  for (char& c : x)
    if (c == '-') c = ':';
  return x == y;
}

// One entry without its except: prefix.
bool EntryMatches(std::string_view entry, std::string_view netdev, std::string_view mac) {
  if (entry == "*") return true;
  constexpr std::string_view kName = "interface-name:";
  constexpr std::string_view kMac = "mac:";
  if (entry.substr(0, kName.size()) == kName) {
    std::string_view name = entry.substr(kName.size());
    if (!name.empty() && name[0] == '=') return name.substr(1) == netdev;
    if (!name.empty() && name[0] == '~') return GlobMatch(ToLower(name.substr(1)), ToLower(netdev));
    return GlobMatch(name, netdev);
  }
  if (entry.substr(0, kMac.size()) == kMac) return !mac.empty() && SameMac(entry.substr(4), mac);
  if (LooksLikeMac(entry)) return !mac.empty() && SameMac(entry, mac);
  if (entry.find(':') != std::string_view::npos) return false;  // type:, driver:, ...
  return entry == netdev;
}

}  // namespace

bool DeviceSpecMatches(std::string_view spec_list, std::string_view netdev, std::string_view mac) {
  bool any_positive = false, positive_match = false;
  constexpr std::string_view kExcept = "except:";
  for (const std::string& entry : SplitFields(spec_list, ",;")) {
    std::string_view view(entry);
    if (view.substr(0, kExcept.size()) == kExcept) {
      if (EntryMatches(view.substr(kExcept.size()), netdev, mac)) return false;
      continue;
    }
    any_positive = true;
    if (EntryMatches(view, netdev, mac)) positive_match = true;
  }
  if (!any_positive) return !SplitFields(spec_list, ",;").empty();
  return positive_match;
}

}  // namespace rocewatch
