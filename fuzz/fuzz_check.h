#pragma once
// Invariant checks inside fuzz targets. A fuzz target does more than "does not crash": it states
// what must hold for every input (a parsed value formats back to itself, an accepted name has no
// '/', ...). A violated invariant aborts with the input's story, so libFuzzer keeps the input as a
// crash; added to the seed corpus it becomes a regression test (ctest fuzz_seeds.<name>).

#include <cstdio>
#include <cstdlib>
#include <string_view>

#define FUZZ_CHECK(condition)                                                                  \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "%s:%d: invariant violated: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)

namespace rocewatch::fuzz {

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace rocewatch::fuzz
