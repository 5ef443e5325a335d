#pragma once
// Bytes as lower-case hexadecimal text, and back: for binary data kept in JSON (a state file, a
// bundle's recordings).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

// "0180c2" for {0x01, 0x80, 0xc2}.
std::string HexEncode(std::span<const uint8_t> bytes);

// The bytes of lower-case hex `text`; nullopt for an odd length, any other character, or more
// than `max_bytes` bytes. "" is no bytes.
std::optional<std::vector<uint8_t>> HexDecode(std::string_view text, size_t max_bytes);

}  // namespace rocewatch
