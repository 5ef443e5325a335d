#include "core/duration.h"

#include <cstdint>
#include <limits>

namespace rocewatch {

StatusOr<Duration> ParseDuration(std::string_view text) {
  auto invalid = [&](const char* why) {
    return Status::InvalidArgument("invalid duration '" + std::string(text) + "': " + why +
                                   " (use e.g. 500ms, 1s, 2m)");
  };
  if (text.empty()) return invalid("empty");
  if (text == "0") return Duration::zero();
  using std::chrono::nanoseconds;
  constexpr int64_t kMaxNanos = std::numeric_limits<int64_t>::max() / 2;
  int64_t total_ns = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] < '0' || text[pos] > '9') return invalid("expected a number");
    int64_t number = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (number > (kMaxNanos / 10)) return invalid("too large");
      number = number * 10 + (text[pos] - '0');
      ++pos;
    }
    size_t unit_start = pos;
    while (pos < text.size() && (text[pos] < '0' || text[pos] > '9')) ++pos;
    std::string_view unit = text.substr(unit_start, pos - unit_start);
    int64_t unit_ns;
    if (unit == "ms") {
      unit_ns = 1'000'000;
    } else if (unit == "s") {
      unit_ns = 1'000'000'000;
    } else if (unit == "m") {
      unit_ns = 60'000'000'000;
    } else if (unit == "h") {
      unit_ns = 3'600'000'000'000;
    } else if (unit.empty()) {
      return invalid("missing unit");
    } else {
      return invalid("unknown unit");
    }
    if (number > (kMaxNanos - total_ns) / unit_ns) return invalid("too large");
    total_ns += number * unit_ns;
  }
  return Duration(total_ns);
}

std::string FormatDuration(Duration d) {
  int64_t ns = d.count();
  if (ns == 0) return "0s";
  if (ns % 3'600'000'000'000 == 0) return std::to_string(ns / 3'600'000'000'000) + "h";
  if (ns % 60'000'000'000 == 0) return std::to_string(ns / 60'000'000'000) + "m";
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  return std::to_string(ns) + "ns";
}

}  // namespace rocewatch
