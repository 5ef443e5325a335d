#pragma once
// Exports what the inventory saw in the latest snapshot: ports, port state, GID tables, byte and
// hardware counters (docs/metrics.md).
//
// The exposition is rebuilt when a scrape follows a poll (core/on_demand.h), but between the slow
// reads (port attributes, error counters, GID tables: daemon/inventory_snapshot_source.h) only the
// byte counters change. So the families are kept as built, with the snapshot they were built from;
// when the next snapshot differs from it in the byte counters' values alone, the kept families are
// copied and those values patched in, instead of building about a thousand samples again.
//
// Failed reads (docs/detection.md, "Failed reads"): the Monitor counts the snapshot's read errors
// in rocewatch_source_errors_total; this component is unhealthy (rocewatch_component_success
// {component="inventory"} 0) while the latest snapshot had a failed read or still carries an
// unknown GID slot, GID table or counter, and reports the read_failed findings of
// inventory/read_failure_checks.h, naming the files of the last poll that failed. It logs when
// reads start failing, fail in other files, and heal (inventory/read_failure_log.h).

#include <vector>

#include "component/monitor_component.h"
#include "inventory/read_failure_log.h"

namespace rocewatch {

class InventoryComponent final : public MonitorComponent {
 public:
  std::string_view name() const override { return "inventory"; }
  // Reads the snapshot part (its metrics and findings are about the latest snapshot).
  StateDeclaration declaration() const override { return {{}, {StatePart::kSnapshot}, {}}; }
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override;
  bool Healthy(const MonitorContext& ctx) const override;
  void AppendMetrics(const MonitorContext& ctx, MetricFamilies& out) const override;
  void AppendFindings(const MonitorContext& ctx, std::vector<Finding>& out) const override;

  // How often the families were built, and how often the kept ones were reused (tests, benchmarks).
  uint64_t builds() const { return builds_; }
  uint64_t reuses() const { return reuses_; }

 private:
  // Patches the byte counters of `snapshot` into families_ (REQUIRES: same shape as built_from_).
  void PatchByteCounters(const NodeSnapshot& snapshot) const;

  bool reads_failing_ = false;
  std::vector<ReadFailure> named_failures_;  // of the last poll that failed a read
  ReadFailureLog read_failure_log_;          // when failed reads are logged

  // Threading: the loop thread only (AppendMetrics is const for the Monitor; the cache is not
  // observable state).
  mutable std::vector<prometheus::MetricFamily> families_;
  mutable NodeSnapshot built_from_;
  mutable bool built_ = false;
  mutable uint64_t builds_ = 0;
  mutable uint64_t reuses_ = 0;
};

// True if the two snapshots differ at most in the values of the byte counters (port_xmit_data,
// port_rcv_data and the transmit/receive bytes made from them): same devices, ports, attributes,
// GID entries, netdevs and other counter values, and the same counters present.
bool SameButByteCounters(const NodeSnapshot& a, const NodeSnapshot& b);

}  // namespace rocewatch
