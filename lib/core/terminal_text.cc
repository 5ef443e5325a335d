#include "core/terminal_text.h"

#include <cstdint>
#include <cstdio>

#include "core/utf8.h"

namespace rocewatch {
namespace {

void AppendHex(const char* format, unsigned value, std::string& out) {
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), format, value);
  out += buffer;
}

// The code point of the well-formed sequence text[pos, pos + length).
uint32_t CodePoint(std::string_view text, size_t pos, size_t length) {
  auto byte = [&](size_t i) { return static_cast<uint8_t>(text[pos + i]); };
  if (length == 1) return byte(0);
  uint32_t value = byte(0) & (0xff >> (length + 1));
  for (size_t i = 1; i < length; ++i) value = (value << 6) | (byte(i) & 0x3f);
  return value;
}

bool IsInvisibleControl(uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

}  // namespace

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    const auto byte = static_cast<uint8_t>(text[pos]);
    if (byte < 0x20 || byte == 0x7f) {
      AppendHex("\\x%02x", byte, out);
      ++pos;
      continue;
    }
    if (byte == '\\') {
      out += "\\\\";
      ++pos;
      continue;
    }
    const size_t length = Utf8SequenceLength(text, pos);
    if (length == 0) {
      AppendHex("\\x%02x", byte, out);
      ++pos;
      continue;
    }
    const uint32_t c = CodePoint(text, pos, length);
    if (IsInvisibleControl(c)) {
      AppendHex("\\u%04x", c, out);
    } else {
      out.append(text.substr(pos, length));
    }
    pos += length;
  }
  return out;
}

}  // namespace rocewatch
