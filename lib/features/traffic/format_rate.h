#pragma once
// Rates for people: "0 B/s", "950 B/s", "1.50 kB/s", "12.3 MB/s", "10.0 GB/s" (SI prefixes,
// three significant digits).

#include <string>

namespace rocewatch {

std::string FormatRate(double bytes_per_second);

}  // namespace rocewatch
