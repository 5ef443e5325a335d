// ToValidUtf8 / IsValidUtf8 (lib/core/utf8.h): the last step of every host value on its way into
// a label or a JSON report. Checked against an independent decoder (mbrtowc is locale-bound; this
// is the RFC 3629 table written as ranges).
#include <cstddef>
#include <cstdint>

#include "core/utf8.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = fuzz::AsText(data, size);
  std::string repaired = ToValidUtf8(text);
  FUZZ_CHECK(IsValidUtf8(repaired));
  FUZZ_CHECK(ToValidUtf8(repaired) == repaired);  // a fixed point
  if (IsValidUtf8(text)) FUZZ_CHECK(repaired == text);
  // Every byte is kept or replaced by the 3 bytes of U+FFFD, never dropped.
  FUZZ_CHECK(repaired.size() >= size && repaired.size() <= 3 * size);
  // ASCII passes through untouched, in order.
  std::string ascii_in, ascii_out;
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x80) ascii_in += c;
  for (char c : repaired)
    if (static_cast<unsigned char>(c) < 0x80) ascii_out += c;
  FUZZ_CHECK(ascii_in == ascii_out);
  return 0;
}
