#pragma once
// The daemon's GET /api/v1/state (export/daemon_state.h): the typed state of its traffic and
// link-quality components, read on the loop thread when a request asks for it.

#include <string>

#include "core/clock.h"
#include "export/daemon_state.h"
#include "link_quality/ethtool_component.h"
#include "model/node.h"
#include "traffic/traffic_component.h"

namespace rocewatch {

struct ServedStateInputs {
  const TrafficComponent* traffic = nullptr;  // null: no ports
  const EthtoolComponent* ethtool = nullptr;  // null: no netdevs
  const NodeSnapshot* snapshot = nullptr;     // the latest poll's (byte counters); may be null
  std::string boot_id;
  double last_poll_unix = 0;
  double now_unix = 0;
  MonoTime now{};  // the same instant as now_unix, on the daemon's monotonic clock
};

DaemonState BuildServedState(const ServedStateInputs& in);

}  // namespace rocewatch
