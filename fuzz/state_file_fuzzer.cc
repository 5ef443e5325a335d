// ParseGidState (lib/features/gid_drift/gid_state_store.h): the --state-file content, which
// survives crashes, disk trouble, partial restores and hand edits. A file that parses must
// serialize back to a file that parses to the same state (what the daemon restores after its next
// restart). A file naming a newer schema is refused as unavailable, not corrupt (seed
// newer_schema.json); schema 3's incidents (seed incidents.json) round-trip too.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_check.h"
#include "gid_drift/gid_state_store.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<PersistedGidState> parsed = ParseGidState(fuzz::AsText(data, size));
  if (!parsed.ok()) {
    // Unusable content is corrupt; only a file naming a schema newer than this build's is
    // refused as unavailable (the daemon then leaves it untouched rather than moving it aside).
    const Status& status = parsed.status();
    FUZZ_CHECK(status.code() == StatusCode::kCorrupt ||
               (status.code() == StatusCode::kUnavailable &&
                status.message().find("written by a newer rocewatch") == 0));
    return 0;
  }
  std::string written = SerializeGidState(*parsed);
  StatusOr<PersistedGidState> again = ParseGidState(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->boot_id == parsed->boot_id);
  FUZZ_CHECK(again->state == parsed->state);
  // The incidents section too (dropped alone when malformed, never a failure of the whole file).
  FUZZ_CHECK(again->incidents == parsed->incidents);
  FUZZ_CHECK(SerializeGidState(*again) == written);
  return 0;
}
