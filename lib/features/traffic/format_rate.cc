#include "traffic/format_rate.h"

#include <cmath>
#include <cstdio>

namespace rocewatch {

std::string FormatRate(double bytes_per_second) {
  if (!std::isfinite(bytes_per_second)) return "? B/s";
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  double value = bytes_per_second < 0 ? 0 : bytes_per_second;
  size_t prefix = 0;
  while (value >= 999.5 && prefix + 1 < std::size(kPrefixes)) {
    value /= 1000;
    ++prefix;
  }
  char text[32];
  if (prefix == 0) {
    std::snprintf(text, sizeof text, "%.0f B/s", value);
  } else {
    const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
    std::snprintf(text, sizeof text, "%.*f %sB/s", decimals, value, kPrefixes[prefix]);
  }
  return text;
}

}  // namespace rocewatch
