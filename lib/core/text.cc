#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace rocewatch {

std::string_view Trim(std::string_view text) {
  const char* space = " \t\r\n";
  size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(space);
  return text.substr(begin, end - begin + 1);
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> SplitFields(std::string_view text, std::string_view separators) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(separators, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view field = Trim(text.substr(start, end - start));
    if (!field.empty()) fields.emplace_back(field);
    start = end + 1;
  }
  return fields;
}

bool IsPrintableAscii(std::string_view text) {
  for (char c : text)
    if (c <= ' ' || c > '~') return false;
  return true;
}

std::string ToLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool ParseInteger(std::string_view text, long long* out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && ptr == end;
}

bool GlobMatch(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<std::chrono::nanoseconds> ParseSystemdTimespan(std::string_view text) {
  using std::chrono::nanoseconds;
  static const std::pair<std::string_view, long long> kUnits[] = {
      {"us", 1000LL},         {"ms", 1000000LL},       {"s", 1000000000LL},
      {"sec", 1000000000LL},  {"m", 60000000000LL},    {"min", 60000000000LL},
      {"h", 3600000000000LL}, {"hr", 3600000000000LL}, {"d", 86400000000000LL}};
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  nanoseconds total{0};
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (digits == i) return std::nullopt;
    long long value = 0;
    if (!ParseInteger(text.substr(digits, i - digits), &value) || value > 1000000000LL)
      return std::nullopt;
    size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    std::string_view unit = text.substr(unit_start, i - unit_start);
    long long scale = unit.empty() ? 1000000000LL : 0;
    for (const auto& [name, ns] : kUnits)
      if (unit == name) scale = ns;
    if (scale == 0 || value > (1LL << 62) / scale) return std::nullopt;
    total += nanoseconds(value * scale);
  }
  return total;
}

std::string JoinList(const std::vector<std::string>& items, size_t limit) {
  std::string text;
  size_t shown = std::min(items.size(), limit);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) text += (i + 1 == shown && shown == items.size()) ? " and " : ", ";
    text += items[i];
  }
  if (items.size() > shown) text += " and " + std::to_string(items.size() - shown) + " more";
  return text;
}

}  // namespace rocewatch
