#include "ethtool/ethtool_text.h"

#include <charconv>

namespace rocewatch {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<uint64_t> ParseUnsigned(std::string_view text) {
  uint64_t value = 0;
  if (text.empty()) return std::nullopt;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

StatusOr<TextFields> ParseTextFields(std::string_view text) {
  TextFields fields;
  size_t line_number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    size_t colon = line.rfind(':');
    if (colon == std::string_view::npos)
      return Status::InvalidArgument("line " + std::to_string(line_number) +
                                     ": expected 'name: value'");
    std::string_view name = Trim(line.substr(0, colon));
    std::string_view value = Trim(line.substr(colon + 1));
    if (value.empty()) continue;  // a header such as "NIC statistics:"
    if (name.empty())
      return Status::InvalidArgument("line " + std::to_string(line_number) + ": empty name");
    fields.emplace_back(std::string(name), std::string(value));
  }
  return fields;
}

StatusOr<DriverStatistics> ParseDriverStatisticsText(std::string_view text) {
  StatusOr<TextFields> fields = ParseTextFields(text);
  if (!fields.ok()) return fields.status();
  DriverStatistics statistics;
  statistics.counters.reserve(fields->size());
  for (auto& [name, value] : *fields) {
    std::optional<uint64_t> number = ParseUnsigned(value);
    if (!number)
      return Status::InvalidArgument("statistic '" + name + "': '" + value +
                                     "' is not an unsigned number");
    statistics.counters.emplace_back(std::move(name), *number);
  }
  return statistics;
}

std::string FormatDriverStatisticsText(const DriverStatistics& statistics) {
  std::string text = "NIC statistics:\n";
  for (const auto& [name, value] : statistics.counters)
    text += "     " + name + ": " + std::to_string(value) + "\n";
  return text;
}

}  // namespace rocewatch
