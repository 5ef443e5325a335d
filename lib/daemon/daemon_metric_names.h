#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kLastPollTimestampMetric[] = "rocewatch_last_poll_timestamp_seconds";
inline constexpr char kReadingThreadsAbandonedMetric[] = "rocewatch_reading_threads_abandoned";
inline constexpr char kSourceStalledMetric[] = "rocewatch_source_stalled";
inline constexpr char kBuildInfoMetric[] = "rocewatch_build_info";
inline constexpr char kComponentDurationSecondsMetric[] = "rocewatch_component_duration_seconds";
inline constexpr char kComponentSuccessMetric[] = "rocewatch_component_success";
inline constexpr char kGidSourceInfoMetric[] = "rocewatch_gid_source_info";
inline constexpr char kPollDurationSecondsMetric[] = "rocewatch_poll_duration_seconds";
inline constexpr char kSourceErrorsTotalMetric[] = "rocewatch_source_errors_total";

}  // namespace rocewatch
