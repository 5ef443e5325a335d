#pragma once
// The fallback for a daemon older than GET /api/v1/state (it answers 404), and for a bundle
// recorded from one: its typed state taken from its /metrics exposition instead. Only what
// diagnose reads is taken (export/daemon_state.h): per port the traffic state, baseline,
// node-wide flag and byte counters; per netdev the link-quality state, pre-FEC BER and the PFC
// paused ratios and storms; the last poll time. Remove once no such daemon is deployed.

#include <vector>

#include "export/daemon_state.h"
#include "export/exposition_text.h"

namespace rocewatch {

DaemonState DaemonStateFromMetrics(const std::vector<ExposedSample>& metrics);

}  // namespace rocewatch
