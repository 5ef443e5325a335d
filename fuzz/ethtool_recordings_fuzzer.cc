// The ethtool recordings of a support bundle (docs/bundle.md), which `diagnose --host-root` and
// `run --host-root` read in place of the live interfaces: `ethtool -S` text for the driver
// statistics and "name: value" lines for FEC, link state, pause and the standard statistics. A
// bundle is anyone's file: the first byte picks the format, the rest is the recording. What parses
// formats back to text that parses to the same reading.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

namespace {

template <typename Reading>
void RoundTrips(const std::string& text, StatusOr<Reading> (*parse)(const std::string&),
                std::string (*format)(const Reading&)) {
  StatusOr<Reading> reading = parse(text);
  if (!reading.ok()) return;
  StatusOr<Reading> again = parse(format(*reading));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *reading);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(fuzz::AsText(data + 1, size - 1));
  switch (data[0] % 5) {
    case 0: {
      StatusOr<DriverStatistics> statistics = ParseDriverStatisticsText(text);
      if (!statistics.ok()) break;
      for (const auto& [name, value] : statistics->counters) {
        FUZZ_CHECK(!name.empty());
        FUZZ_CHECK(name.find('\n') == std::string::npos);
      }
      StatusOr<DriverStatistics> again =
          ParseDriverStatisticsText(FormatDriverStatisticsText(*statistics));
      FUZZ_CHECK(again.ok());
      FUZZ_CHECK(again->counters == statistics->counters);
      break;
    }
    case 1:
      RoundTrips<FecReading>(text, ParseFecRecording, FormatFecRecording);
      break;
    case 2:
      RoundTrips<LinkStateReading>(text, ParseLinkStateRecording, FormatLinkStateRecording);
      break;
    case 3:
      RoundTrips<PauseReading>(text, ParsePauseRecording, FormatPauseRecording);
      break;
    case 4:
      RoundTrips<StandardStatistics>(text, ParseStandardStatisticsRecording,
                                     FormatStandardStatisticsRecording);
      break;
  }
  return 0;
}
