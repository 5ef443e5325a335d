#pragma once
// The text formats of the ethtool recordings (docs/bundle.md): `ethtool -S <netdev>` output for
// the driver statistics ("NIC statistics:" then one "name: value" per line), and the same
// "name: value" lines for the other recordings (FEC, link state, pause, standard statistics).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "ethtool/ethtool_readings.h"

namespace rocewatch {

using TextFields = std::vector<std::pair<std::string, std::string>>;

// "name: value" lines, in order. Leading and trailing blanks are trimmed; blank lines, lines
// starting with '#' and header lines ending in ':' with nothing after it ("NIC statistics:") are
// skipped. A name may itself contain ": " (the value is what follows the last one).
// Errors: InvalidArgument naming the first line that has no ':'.
StatusOr<TextFields> ParseTextFields(std::string_view text);

// `ethtool -S` text. Errors: as ParseTextFields, or InvalidArgument naming a value that is not an
// unsigned 64-bit decimal number.
StatusOr<DriverStatistics> ParseDriverStatisticsText(std::string_view text);
// As `ethtool -S` prints it: "NIC statistics:\n     name: value\n...".
std::string FormatDriverStatisticsText(const DriverStatistics& statistics);

// An unsigned decimal (no sign, no blanks); nullopt otherwise.
std::optional<uint64_t> ParseUnsigned(std::string_view text);

}  // namespace rocewatch
