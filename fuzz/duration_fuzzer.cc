// ParseDuration / FormatDuration (lib/core/duration.h): --interval, --settle, --watch and the
// ROCEWATCH_* environment variables come from users and manifests.
#include <cstddef>
#include <cstdint>

#include "core/duration.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<Duration> d = ParseDuration(fuzz::AsText(data, size));
  if (!d.ok()) {
    FUZZ_CHECK(!d.status().message().empty());
    return 0;
  }
  FUZZ_CHECK(*d >= Duration::zero());
  std::string formatted = FormatDuration(*d);
  StatusOr<Duration> again = ParseDuration(formatted);
  FUZZ_CHECK(again.ok() && *again == *d);
  return 0;
}
