#include "core/loop_requests.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace rocewatch {

StatusOr<std::unique_ptr<LoopRequests>> LoopRequests::Create(EventLoop& loop, Answer answer,
                                                             const std::string& what) {
  const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    return Status::Internal("cannot create an eventfd for " + what + ": " + std::strerror(errno));
  }
  return std::unique_ptr<LoopRequests>(new LoopRequests(loop, std::move(answer), fd));
}

LoopRequests::LoopRequests(EventLoop& loop, Answer answer, int wake_fd)
    : loop_(loop), answer_(std::move(answer)), wake_fd_(wake_fd) {
  loop_.WatchFd(wake_fd_, [this](short) { OnWake(); });
}

LoopRequests::~LoopRequests() {
  loop_.UnwatchFd(wake_fd_);
  close(wake_fd_);
}

void LoopRequests::OnWake() {
  uint64_t wakes = 0;
  while (read(wake_fd_, &wakes, sizeof wakes) < 0 && errno == EINTR) {
  }
  uint64_t requested = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    requested = requested_;  // what was asked before this answer starts
  }
  answer_();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (requested > answered_up_to_) answered_up_to_ = requested;
  }
  answered_.notify_all();
}

bool LoopRequests::Ask(Duration wait) const {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t ticket = ++requested_;
  const uint64_t one = 1;
  // EAGAIN only if the counter were about to overflow: the loop has wakes pending anyway.
  while (write(wake_fd_, &one, sizeof one) < 0 && errno == EINTR) {
  }
  return answered_.wait_for(lock, wait, [&] { return answered_up_to_ >= ticket; });
}

}  // namespace rocewatch
