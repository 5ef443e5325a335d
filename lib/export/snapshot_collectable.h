#pragma once
// What a scrape sees: the exposition the event loop published last. Collect() copies it under a
// mutex and does no I/O, so a scrape costs a copy, never a sysfs read (prometheus-cpp
// serializes the scrapes of one endpoint and each calls every collectable).
//
// Threading: Publish() from the loop thread, Collect() from the exposer's threads.

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <memory>
#include <mutex>
#include <vector>

namespace rocewatch {

class SnapshotCollectable final : public prometheus::Collectable {
 public:
  void Publish(std::vector<prometheus::MetricFamily> families);
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> current_ =
      std::make_shared<const std::vector<prometheus::MetricFamily>>();
};

}  // namespace rocewatch
