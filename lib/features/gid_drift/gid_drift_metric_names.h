#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kGidDriftEventsTotalMetric[] = "rocewatch_gid_drift_events_total";
inline constexpr char kGidHolesMetric[] = "rocewatch_gid_holes";
inline constexpr char kGidIndexMismatchMetric[] = "rocewatch_gid_index_mismatch";
inline constexpr char kGidLastDriftInfoMetric[] = "rocewatch_gid_last_drift_info";
inline constexpr char kGidLastDriftTimestampSecondsMetric[] =
    "rocewatch_gid_last_drift_timestamp_seconds";
inline constexpr char kStatePersistenceFailuresTotalMetric[] =
    "rocewatch_state_persistence_failures_total";
inline constexpr char kStatePersistenceOkMetric[] = "rocewatch_state_persistence_ok";
inline constexpr char kRestoredIncidentsMetric[] = "rocewatch_restored_incidents";

}  // namespace rocewatch
