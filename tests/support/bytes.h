#pragma once
// Test input with embedded NUL bytes: Bytes("a\0b") is 3 bytes, not 1.

#include <cstddef>
#include <string>

namespace rocewatch {

template <size_t N>
std::string Bytes(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

}  // namespace rocewatch
