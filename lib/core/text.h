#pragma once
// Small text helpers shared by the configuration parsers. Pure.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

// Without leading and trailing spaces, tabs, CR and LF.
std::string_view Trim(std::string_view text);
// Lines without their '\n' (and a trailing '\r'); a final line without '\n' is kept.
std::vector<std::string_view> SplitLines(std::string_view text);
// Non-empty fields separated by any of `separators`, each trimmed.
std::vector<std::string> SplitFields(std::string_view text, std::string_view separators);
std::string ToLower(std::string_view text);
// Every byte printable ASCII ('!' to '~'): no space, control or non-ASCII byte.
bool IsPrintableAscii(std::string_view text);
// A decimal integer that fits in long long, with an optional leading '-'; nothing else.
bool ParseInteger(std::string_view text, long long* out);
// Shell-style match of `name` against `pattern` with '*' and '?' (no character classes).
bool GlobMatch(std::string_view pattern, std::string_view name);

// A systemd time span (systemd.time(7)): "5", "5s", "500ms", "1min 30s", "2h"; a bare number is
// seconds. Units us, ms, s, sec, m, min, h, hr, d. nullopt for anything else.
std::optional<std::chrono::nanoseconds> ParseSystemdTimespan(std::string_view text);

// "a, b and c"; the first `limit` items and "and N more" beyond.
std::string JoinList(const std::vector<std::string>& items, size_t limit = 8);

}  // namespace rocewatch
