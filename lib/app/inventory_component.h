#pragma once
// Exports what the inventory saw in the latest snapshot: ports, port state, GID tables, byte and
// hardware counters (docs/metrics.md). Holds no state of its own: it reads ctx.latest_snapshot().

#include "app/monitor_component.h"

namespace rocewatch {

class InventoryComponent final : public MonitorComponent {
 public:
  std::string_view name() const override { return "inventory"; }
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
};

}  // namespace rocewatch
