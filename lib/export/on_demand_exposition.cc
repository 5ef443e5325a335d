#include "export/on_demand_exposition.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace rocewatch {

StatusOr<std::unique_ptr<OnDemandExposition>> OnDemandExposition::Create(EventLoop& loop,
                                                                         Build build,
                                                                         Duration wait) {
  const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    return Status::Internal(std::string("cannot create an eventfd for /metrics: ") +
                            std::strerror(errno));
  }
  return std::unique_ptr<OnDemandExposition>(
      new OnDemandExposition(loop, std::move(build), wait, fd));
}

OnDemandExposition::OnDemandExposition(EventLoop& loop, Build build, Duration wait, int wake_fd)
    : loop_(loop), build_(std::move(build)), wait_(wait), wake_fd_(wake_fd) {
  loop_.WatchFd(wake_fd_, [this](short) { Answer(); });
}

OnDemandExposition::~OnDemandExposition() {
  loop_.UnwatchFd(wake_fd_);
  close(wake_fd_);
}

void OnDemandExposition::Answer() {
  uint64_t wakes = 0;
  while (read(wake_fd_, &wakes, sizeof wakes) < 0 && errno == EINTR) {
  }
  uint64_t requested = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requested = requested_;  // what was asked before this build starts
  }
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> built;
  if (stale_.exchange(false, std::memory_order_acq_rel)) {  // a MarkStale() during the build
    built = std::make_shared<const std::vector<prometheus::MetricFamily>>(build_());  // stays
  }
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> replaced;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (built) {
      replaced = std::move(current_);
      current_ = std::move(built);
      ++builds_;
    }
    if (requested > answered_up_to_) answered_up_to_ = requested;
  }
  answered_.notify_all();
  // `replaced` (the last families) is freed here, outside the lock.
}

std::vector<prometheus::MetricFamily> OnDemandExposition::Collect() const {
  std::shared_ptr<const std::vector<prometheus::MetricFamily>> current;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t ticket = ++requested_;
    const uint64_t one = 1;
    // EAGAIN only if the counter were about to overflow: the loop has wakes pending anyway.
    while (write(wake_fd_, &one, sizeof one) < 0 && errno == EINTR) {
    }
    answered_.wait_for(lock, wait_, [&] { return answered_up_to_ >= ticket; });
    current = current_;
  }
  return *current;  // the copy happens outside the lock
}

uint64_t OnDemandExposition::builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builds_;
}

}  // namespace rocewatch
