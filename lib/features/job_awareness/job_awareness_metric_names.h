#pragma once
// The names of every metric family this room exports: one spelling each, for the exporter, the
// diagnose reader (a daemon's exposition read back) and the tests. Part of the public contract
// (docs/metrics.md); tests/lint/metric_names_once.sh refuses a name spelled anywhere else.

namespace rocewatch {

inline constexpr char kConsumerBlindProcessesMetric[] = "rocewatch_consumer_blind_processes";
inline constexpr char kConsumerSourceUpMetric[] = "rocewatch_consumer_source_up";
inline constexpr char kRdmaConsumerInfoMetric[] = "rocewatch_rdma_consumer_info";
inline constexpr char kRdmaConsumersMetric[] = "rocewatch_rdma_consumers";
inline constexpr char kRdmaConsumersKnownMetric[] = "rocewatch_rdma_consumers_known";

}  // namespace rocewatch
