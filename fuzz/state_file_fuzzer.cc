// ParseGidState (lib/gid/gid_state_store.h): the --state-file content, which survives crashes,
// disk trouble, partial restores and hand edits. A file that parses must serialize back to a file
// that parses to the same state (what the daemon restores after its next restart).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_check.h"
#include "gid/gid_state_store.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<PersistedGidState> parsed = ParseGidState(fuzz::AsText(data, size));
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().code() == StatusCode::kCorrupt);
    return 0;
  }
  std::string written = SerializeGidState(*parsed);
  StatusOr<PersistedGidState> again = ParseGidState(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->boot_id == parsed->boot_id);
  FUZZ_CHECK(again->state == parsed->state);
  FUZZ_CHECK(SerializeGidState(*again) == written);
  return 0;
}
