#pragma once
// The latest ConsumerObservation of the daemon, shared by the component that produces it
// (ConsumerComponent) and those that read it (traffic, GID drift). Readers may ask for a full
// scan, e.g. when a rail carries traffic that no known consumer explains.
//
// Threading: the event-loop thread only.

#include <optional>
#include <string>
#include <utility>

#include "model/rail_consumer.h"

namespace rocewatch {

class ConsumerBoard {
 public:
  // nullopt before the first scan: every device's consumers are unknown.
  const std::optional<ConsumerObservation>& latest() const { return latest_; }
  ConsumerKnowledge KnowledgeOf(const std::string& device) const {
    return latest_ ? latest_->KnowledgeOf(device) : ConsumerKnowledge::kUnknown;
  }
  // "unknown" before the first scan.
  std::string DescribeConsumers(const std::string& device) const {
    return latest_ ? latest_->DescribeConsumers(device) : "unknown";
  }
  void Publish(ConsumerObservation observation) { latest_ = std::move(observation); }

  void RequestFullScan() { full_scan_requested_ = true; }
  // True once after RequestFullScan.
  bool TakeFullScanRequest() { return std::exchange(full_scan_requested_, false); }

 private:
  std::optional<ConsumerObservation> latest_;
  bool full_scan_requested_ = false;
};

}  // namespace rocewatch
