#pragma once
// A document the event loop publishes and HTTP handlers serve as is (GET /api/v1/findings), like
// SnapshotCollectable for /metrics: Current() hands out the last published text under a mutex, so
// a request costs a pointer copy, never I/O or a computation.
//
// Threading: Publish() from the loop thread, Current() from the server's threads.

#include <memory>
#include <mutex>
#include <string>

namespace rocewatch {

class PublishedDocument {
 public:
  void Publish(std::string text) {
    auto next = std::make_shared<const std::string>(std::move(text));
    std::lock_guard<std::mutex> lock(mutex_);
    current_ = std::move(next);
  }
  // Null before the first Publish.
  std::shared_ptr<const std::string> Current() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return current_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const std::string> current_;
};

}  // namespace rocewatch
