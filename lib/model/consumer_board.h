#pragma once
// The latest ConsumerObservation of the daemon, shared by the component that produces it
// (ConsumerComponent) and those that read it (traffic, GID drift). Readers may ask for a full
// scan, e.g. when a rail carries traffic that no known consumer explains.
//
// Threading: the event-loop thread only.

#include <optional>
#include <set>
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

  // The traffic detector's view: `device` carries traffic while the sources say nobody holds it
  // (a kernel RDMA user such as NFS over RDMA or NVMe-oF, or a consumer a scan has not seen).
  void SetTrafficUnexplained(const std::string& device, bool unexplained) {
    if (unexplained) {
      traffic_unexplained_.insert(device);
    } else {
      traffic_unexplained_.erase(device);
    }
  }
  // What the daemon exports and every reader but the traffic detector uses: the sources'
  // knowledge, except that kNone on a device whose traffic no holder explains is kUnknown.
  ConsumerKnowledge EffectiveKnowledgeOf(const std::string& device) const {
    const ConsumerKnowledge known = KnowledgeOf(device);
    return known == ConsumerKnowledge::kNone && traffic_unexplained_.count(device) > 0
               ? ConsumerKnowledge::kUnknown
               : known;
  }
  // DescribeConsumers, saying so where traffic proves a consumer nobody is seen holding.
  std::string DescribeEffectiveConsumers(const std::string& device) const {
    if (EffectiveKnowledgeOf(device) == KnowledgeOf(device)) return DescribeConsumers(device);
    return "unknown (traffic that no process holds: a kernel RDMA user such as NFS over RDMA or "
           "NVMe-oF, or a consumer not seen yet)";
  }

  void RequestFullScan() { full_scan_requested_ = true; }
  // True once after RequestFullScan.
  bool TakeFullScanRequest() { return std::exchange(full_scan_requested_, false); }

 private:
  std::optional<ConsumerObservation> latest_;
  std::set<std::string> traffic_unexplained_;
  bool full_scan_requested_ = false;
};

}  // namespace rocewatch
