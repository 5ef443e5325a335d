// The Accept-Encoding header value of a scrape, which the HTTP server hands to AcceptsGzip to
// choose between the plain and the gzipped exposition. Whoever reaches the port writes it.
// Never a crash; a value that names no gzip (and no '*') never selects gzip; gzip listed first
// with no quality always does.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/text.h"
#include "export/served_text.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string value(fuzz::AsText(data, size));
  const bool accepts = AcceptsGzip(value);
  const std::string lower = ToLower(value);
  if (lower.find("gzip") == std::string::npos && value.find('*') == std::string::npos)
    FUZZ_CHECK(!accepts);
  FUZZ_CHECK(AcceptsGzip("gzip," + value));
  return 0;
}
