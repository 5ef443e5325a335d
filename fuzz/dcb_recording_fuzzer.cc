// The host's DCB answers: the attributes of a DCB_CMD_IEEE_GET answer (from the kernel, or from a
// bundle's recording) and the recording that carries them (docs/bundle.md). A bundle is anyone's
// file: the first byte picks what the rest is (0: an answer's bytes; otherwise a recording's
// text). What parses formats back to a recording that parses to the same answer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "netlink/dcb_recording.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] == 0) {
    StatusOr<std::optional<HostPfc>> pfc = ParseDcbIeeeAnswer({data + 1, size - 1});
    FUZZ_CHECK(pfc.ok() || pfc.status().code() == StatusCode::kCorrupt);
    return 0;
  }
  const std::string text(fuzz::AsText(data + 1, size - 1));
  StatusOr<std::optional<std::vector<uint8_t>>> answer = ParseDcbRecording(text);
  if (!answer.ok()) {
    FUZZ_CHECK(answer.status().code() == StatusCode::kCorrupt ||
               answer.status().code() == StatusCode::kUnavailable);
    return 0;
  }
  if (answer->has_value()) FUZZ_CHECK((*answer)->size() <= kMaxDcbAnswerBytes);
  StatusOr<std::optional<std::vector<uint8_t>>> again =
      ParseDcbRecording(FormatDcbRecording("ens1f0np0", answer));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *answer);
  if (answer->has_value()) (void)ParseDcbIeeeAnswer(**answer);
  return 0;
}
