// The kubelet's pod-resources answer as a bundle records it (rocewatch/kubelet/pod-resources.json),
// read by diagnose and run in place of the kubelet socket: JSON anyone may have written, nested,
// truncated, of the wrong types. Never an exception; what parses formats back to a recording that
// parses to the same allocations.
#include <cstddef>
#include <cstdint>
#include <string>

#include "consumers/pod_resources_recording.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StatusOr<std::vector<PodDeviceAllocation>> answer =
      ParsePodResourcesRecording(fuzz::AsText(data, size));
  if (!answer.ok() && answer.status().code() == StatusCode::kCorrupt) return 0;
  // A recorded answer (allocations or the kubelet's recorded failure) formats and reads back.
  StatusOr<std::vector<PodDeviceAllocation>> again =
      ParsePodResourcesRecording(FormatPodResourcesRecording("fuzz", answer));
  FUZZ_CHECK(again.ok() == answer.ok());
  if (answer.ok()) {
    FUZZ_CHECK(*again == *answer);
  } else {
    FUZZ_CHECK(again.status().code() == answer.status().code());
  }
  return 0;
}
