// The daemon's GET /api/v1/state, which `rocewatch diagnose --daemon URL` reads from whatever
// answers at that URL, or from a bundle (export/daemon_state.h). Never a crash or an exception;
// what parses is written back and parses again to the same entries.
#include <cstddef>
#include <cstdint>
#include <string>

#include "export/daemon_state.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<DaemonState> state = ParseDaemonState(fuzz::AsText(data, size));
  if (!state.ok()) return 0;
  FUZZ_CHECK(state->ports.size() <= kMaxDaemonStateEntries);
  FUZZ_CHECK(state->netdevs.size() <= kMaxDaemonStateEntries);
  const std::string written =
      DaemonStateToJson(*state).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  StatusOr<DaemonState> again = ParseDaemonState(written);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->ports.size() == state->ports.size());
  FUZZ_CHECK(again->netdevs.size() == state->netdevs.size());
  return 0;
}
