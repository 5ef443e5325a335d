// ParseLldpFrame / ParseLldpdu (lib/sources/lldp/lldp_frame.h): an Ethernet frame from the wire, as
// the AF_PACKET receiver or a recorded pcap hands it over. Beyond not crashing: every string it
// returns is valid UTF-8 without control characters and bounded by the TLV it came from, the tables
// are bounded, and the Ethernet wrapper decodes exactly what the LLDPDU alone decodes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/utf8.h"
#include "fuzz/fuzz_check.h"
#include "lldp/lldp_frame.h"

using namespace rocewatch;

namespace {

void CheckText(const std::string& text) {
  FUZZ_CHECK(IsValidUtf8(text));
  FUZZ_CHECK(text.size() <= 3 * 511);
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    FUZZ_CHECK(c >= 0x20 && c != 0x7f);
    if (c == 0xc2 && i + 1 < text.size())
      FUZZ_CHECK(static_cast<unsigned char>(text[i + 1]) > 0x9f);
  }
}

void CheckFrame(const LldpFrame& f, size_t size) {
  CheckText(f.chassis_id.value);
  CheckText(f.port_id.value);
  for (const auto* text : {&f.port_description, &f.system_name, &f.system_description})
    if (*text) CheckText(**text);
  for (const LldpManagementAddress& m : f.management_addresses) CheckText(m.address);
  FUZZ_CHECK(f.management_addresses.size() <= kMaxManagementAddresses);
  FUZZ_CHECK(f.app_priorities.size() * 3 <= size);
  for (const LldpAppPriority& a : f.app_priorities) FUZZ_CHECK(a.priority <= 7 && a.selector <= 7);
  if (std::optional<uint8_t> p = f.RoceV2Priority()) FUZZ_CHECK(*p <= 7);
  if (f.pfc) FUZZ_CHECK(f.pfc->capability <= 15);
  if (f.ets_configuration)
    for (uint8_t tc : f.ets_configuration->priority_tc) FUZZ_CHECK(tc <= 15);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> input(data, size);
  StatusOr<LldpFrame> frame = ParseLldpFrame(input);
  if (frame.ok()) {
    CheckFrame(frame.value(), size);
    FUZZ_CHECK(frame->source_mac.size() == 17);
  } else {
    FUZZ_CHECK(!frame.status().message().empty());
  }
  // The same bytes as an LLDPDU, and behind an untagged LLDP Ethernet header: the same answer.
  StatusOr<LldpFrame> lldpdu = ParseLldpdu(input);
  std::vector<uint8_t> wrapped = {0x01, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1, 0x88, 0xcc};
  wrapped.insert(wrapped.end(), input.begin(), input.end());
  StatusOr<LldpFrame> unwrapped = ParseLldpFrame(wrapped);
  FUZZ_CHECK(lldpdu.ok() == unwrapped.ok());
  if (lldpdu.ok()) {
    CheckFrame(lldpdu.value(), size);
    LldpFrame same = unwrapped.value();
    FUZZ_CHECK(same.source_mac == "02:00:00:00:00:01");
    same.source_mac.clear();
    FUZZ_CHECK(same == lldpdu.value());
  }
  return 0;
}
