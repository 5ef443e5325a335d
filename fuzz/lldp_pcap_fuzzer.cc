// ReadLldpPcap (lib/sources/lldp/lldp_pcap.h): a pcap file from a support bundle, so anyone's
// bytes. Beyond not crashing: every frame it returns is untagged LLDP (ethertype 0x88cc) and at
// most kLldpMaxFrameBytes, there are no more frames than the file could hold, and each frame
// written back with WriteLldpPcap reads back as exactly itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "lldp/lldp_pcap.h"
#include "lldp/lldp_socket.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  StatusOr<std::vector<std::vector<uint8_t>>> frames = ReadLldpPcap(bytes);
  if (!frames.ok()) {
    FUZZ_CHECK(frames.status().message().rfind("pcap: ", 0) == 0);
    return 0;
  }
  FUZZ_CHECK(size >= 24);
  FUZZ_CHECK(frames->size() <= (size - 24) / 16);
  for (const std::vector<uint8_t>& frame : *frames) {
    FUZZ_CHECK(frame.size() >= 14 && frame.size() <= kLldpMaxFrameBytes);
    FUZZ_CHECK(frame[12] == 0x88 && frame[13] == 0xcc);
    StatusOr<std::vector<std::vector<uint8_t>>> again = ReadLldpPcap(WriteLldpPcap(frame, 1.5));
    FUZZ_CHECK(again.ok() && again->size() == 1 && (*again)[0] == frame);
  }
  return 0;
}
