#include "export/snapshot_collectable.h"

namespace rocewatch {

void SnapshotCollectable::Publish(std::vector<prometheus::MetricFamily> families) {
  auto next = std::make_shared<const std::vector<prometheus::MetricFamily>>(std::move(families));
  std::lock_guard<std::mutex> lock(mutex_);
  current_ = std::move(next);
}

std::vector<prometheus::MetricFamily> SnapshotCollectable::Collect() const {
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> current;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current = current_;
  }
  return *current;  // the copy happens outside the lock
}

}  // namespace rocewatch
