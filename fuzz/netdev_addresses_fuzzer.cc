// The addresses file of a support bundle (rocewatch/netlink/addresses): one line per netdev with
// its carrier, admin state and addresses, which diagnose reads in place of rtnetlink. Any bytes:
// what parses formats back to a file that parses to the same netdevs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "os/netdev_recording.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<std::map<std::string, NetdevObservation>> recorded =
      ParseNetdevRecording(std::string(fuzz::AsText(data, size)));
  if (!recorded.ok()) return 0;
  for (const auto& [name, observation] : *recorded) {
    FUZZ_CHECK(!name.empty());
    FUZZ_CHECK(observation.state.name == name);
    FUZZ_CHECK(observation.in_namespace);
  }
  StatusOr<std::map<std::string, NetdevObservation>> again =
      ParseNetdevRecording(FormatNetdevRecording(*recorded));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->size() == recorded->size());
  for (const auto& [name, observation] : *recorded) {
    FUZZ_CHECK(again->count(name) == 1);
    FUZZ_CHECK(again->at(name).state == observation.state);
    FUZZ_CHECK(again->at(name).carrier_known == observation.carrier_known);
  }
  return 0;
}
