// ParseRequestHead (lib/export/http_request.h): what any peer of the metrics server sends.
#include <cstddef>
#include <cstdint>

#include "export/http_request.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  HttpRequestHead head;
  const HeadVerdict verdict = ParseRequestHead(fuzz::AsText(data, size), &head);
  if (verdict != HeadVerdict::kComplete) return 0;
  // A complete head has a method and a path that starts with '/', and no query.
  FUZZ_CHECK(!head.method.empty() && !head.path.empty() && head.path.front() == '/');
  FUZZ_CHECK(head.path.find('?') == std::string::npos);
  return 0;
}
