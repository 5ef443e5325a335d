// Every sysfs value parser (lib/sources/sysfs/sysfs_parsers.h) on arbitrary bytes: the content of
// any attribute file can be empty, truncated, binary or oversized on a broken driver or a fixture.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_check.h"
#include "sysfs/sysfs_parsers.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = fuzz::AsText(data, size);

  StatusOr<SysfsPortState> state = ParsePortState(text);
  if (state.ok()) {
    FUZZ_CHECK(!state->name.empty());
    for (char c : state->name) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
    // The kernel's own rendering of the parsed value parses back to it.
    StatusOr<SysfsPortState> again =
        ParsePortState(std::to_string(state->code) + ": " + state->name + "\n");
    FUZZ_CHECK(again.ok() && *again == *state);
  }

  StatusOr<uint64_t> counter = ParseCounterValue(text);
  if (counter.ok()) {
    StatusOr<uint64_t> again = ParseCounterValue(std::to_string(*counter) + "\n");
    FUZZ_CHECK(again.ok() && *again == *counter);
  }

  StatusOr<std::string> gid = ParseGid(text);
  if (gid.ok()) {
    FUZZ_CHECK(gid->size() == 39);
    for (char c : *gid) FUZZ_CHECK((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':');
    StatusOr<std::string> again = ParseGid(*gid);  // lowercase output is a fixed point
    FUZZ_CHECK(again.ok() && *again == *gid);
  }

  GidType type = ParseGidType(text);
  FUZZ_CHECK(type == GidType::kIb || type == GidType::kRoceV1 || type == GidType::kRoceV2 ||
             type == GidType::kUnknown);

  StatusOr<std::string> netdev = ParseNetdevName(text);
  if (netdev.ok()) {
    FUZZ_CHECK(!netdev->empty() && netdev->size() < 16);
    FUZZ_CHECK(*netdev != "." && *netdev != "..");
    FUZZ_CHECK(netdev->find('/') == std::string::npos);  // safe as a path component
    StatusOr<std::string> again = ParseNetdevName(*netdev);
    FUZZ_CHECK(again.ok() && *again == *netdev);
  }

  std::string plain = ParsePlainText(text);
  FUZZ_CHECK(plain.size() <= size);
  FUZZ_CHECK(ParsePlainText(plain) == plain);
  return 0;
}
