#pragma once
// A component that provides node state parts with values a test sets: the stand-in for the
// netlink, consumers, traffic or ethtool component when a test runs another component alone
// (the Monitor refuses to start a component whose parts nobody provides).

#include <string>
#include <utility>

#include "component/monitor_component.h"

namespace rocewatch {

class StateStubComponent final : public MonitorComponent {
 public:
  explicit StateStubComponent(StateParts provides, std::string name = "stub")
      : provides_(provides), name_(std::move(name)) {}

  std::string_view name() const override { return name_; }
  StateDeclaration declaration() const override { return {provides_, {}, {}}; }
  Status Start(MonitorContext& ctx) override {
    ctx_ = &ctx;
    Write();
    return Status::Ok();
  }
  // Every poll: the parts keep what the test set.
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot& snapshot) override {
    (void)ctx;
    (void)snapshot;
    Write();
  }

  // What it provides (its parts only); written at Start, at every poll and by Write().
  NodeState values;
  // Writes `values` now. No-op before Start.
  void Write() {
    if (ctx_ == nullptr) return;
    NodeStateWriter& out = ctx_->state_writer();
    if (provides_.Has(StatePart::kNetdevLinks)) (void)out.SetNetdevLinks(values.netdev_links);
    if (provides_.Has(StatePart::kConsumers) && values.consumers)
      (void)out.SetConsumers(*values.consumers);
    if (provides_.Has(StatePart::kTrafficUnexplained))
      (void)out.SetTrafficUnexplained(values.traffic_unexplained);
    if (provides_.Has(StatePart::kConsumerScanRequest))
      (void)out.SetConsumerScanRequested(values.consumer_scan_requested);
    if (provides_.Has(StatePart::kLinkDownReasons))
      (void)out.SetLinkDownReasons(values.link_down_reasons);
    if (provides_.Has(StatePart::kRestoredIncidents))
      (void)out.SetRestoredIncidents(values.restored_incidents);
    if (provides_.Has(StatePart::kNetdevIncidents))
      (void)out.SetNetdevIncidents(values.netdev_incidents);
    if (provides_.Has(StatePart::kRailIncidents)) (void)out.SetRailIncidents(values.rail_incidents);
    if (provides_.Has(StatePart::kFarEnds)) (void)out.SetFarEnds(values.far_ends);
    if (provides_.Has(StatePart::kLinkVerdicts)) (void)out.SetLinkVerdicts(values.link_verdicts);
    if (provides_.Has(StatePart::kSeenPorts)) (void)out.SetSeenPorts(values.seen_ports);
  }

 private:
  const StateParts provides_;
  const std::string name_;
  MonitorContext* ctx_ = nullptr;
};

}  // namespace rocewatch
