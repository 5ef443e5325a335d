#pragma once

// Names of the Monitor's own families that another room reads: diagnose reads the last poll's time
// back from a daemon's exposition. One spelling, here; part of the public contract
// (docs/metrics.md).

namespace rocewatch {

inline constexpr char kLastPollTimestampMetric[] = "rocewatch_last_poll_timestamp_seconds";

}  // namespace rocewatch
