#pragma once
// Text a terminal can be trusted with. Host strings (process names and command lines, netdev
// names, GID and sysfs text, LLDP strings, a daemon's answers, anything read from a support
// bundle) are bytes someone else chose: printed raw, an ESC sequence in a process name could
// recolour, retitle or rewrite what an operator sees, or a newline forge a line of the report.
// Every piece of such text passes through TerminalSafe on its way to a text report, the --npd
// line or an error message; JSON output relies on the JSON encoder's escaping instead.

#include <string>
#include <string_view>

namespace rocewatch {

// `text` with nothing a terminal interprets: C0 controls (newline and tab included) and DEL as
// \xHH, C1 controls (U+0080..U+009F, e.g. the one-byte CSI) and the bidirectional overrides and
// isolates (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) as \uHHHH, bytes that are not
// well-formed UTF-8 as \xHH, and '\' as "\\" so that an escape cannot be forged. Printable text,
// other UTF-8 included, is unchanged. Pure.
std::string TerminalSafe(std::string_view text);

}  // namespace rocewatch
