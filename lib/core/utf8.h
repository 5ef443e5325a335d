#pragma once
// UTF-8 validity for text that leaves the process. Values read from sysfs or procfs (fw_ver,
// link_layer, counter file names, environ) are arbitrary bytes; Prometheus rejects a whole scrape
// when one label value is not valid UTF-8 ("invalid UTF-8 label value"), and nlohmann::json throws
// on dump. So every such value goes through ToValidUtf8 on its way out.

#include <string>
#include <string_view>

namespace rocewatch {

// True if `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF), as Go's utf8.Valid decides it.
bool IsValidUtf8(std::string_view text);

// Length of the well-formed sequence at text[pos] (pos < text.size()), 0 if the byte there does
// not start one.
size_t Utf8SequenceLength(std::string_view text, size_t pos);

// `text` with every byte that is not part of a well-formed sequence replaced by U+FFFD. Valid
// text is returned unchanged.
std::string ToValidUtf8(std::string_view text);

}  // namespace rocewatch
