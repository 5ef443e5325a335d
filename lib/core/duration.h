#pragma once
// Human durations on the command line: "500ms", "1s", "2m", "1h", "1m30s".

#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/status.h"

namespace rocewatch {

// Parses a sequence of <non-negative integer><unit> with units ms, s, m, h (e.g. "1m30s").
// A bare "0" is accepted. Errors: InvalidArgument naming the input.
StatusOr<Duration> ParseDuration(std::string_view text);

// The shortest exact rendering: 1500ms -> "1500ms", 60s -> "1m", 0 -> "0s".
std::string FormatDuration(Duration d);

}  // namespace rocewatch
