#include "support/fake_rtnetlink_source.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace rocewatch {

void FakeRtnetlinkSource::Signal() {
  if (fd_ < 0) return;
  uint64_t one = 1;
  if (write(fd_, &one, sizeof one) != sizeof one) return;
}

void FakeRtnetlinkSource::Push(NetlinkMessage message) {
  queue_.push_back(std::move(message));
  Signal();
}

void FakeRtnetlinkSource::PushOverrun() {
  queue_.push_back(Overrun{});
  Signal();
}

Status FakeRtnetlinkSource::Open() {
  Close();
  fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd_ < 0) return Status::FromErrno(errno, "eventfd");
  ++opens_;
  if (!queue_.empty()) Signal();
  return Status::Ok();
}

void FakeRtnetlinkSource::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

StatusOr<RtnetlinkSource::ReadResult> FakeRtnetlinkSource::ReadPending(
    std::vector<NetlinkMessage>& out) {
  ++reads_;
  uint64_t value;
  if (read(fd_, &value, sizeof value) < 0) { /* nothing signalled: fine */
  }
  while (!queue_.empty()) {
    auto item = std::move(queue_.front());
    queue_.pop_front();
    if (std::holds_alternative<Overrun>(item)) {
      if (!queue_.empty()) Signal();
      return ReadResult::kOverrun;
    }
    out.push_back(std::move(std::get<NetlinkMessage>(item)));
  }
  return ReadResult::kDrained;
}

StatusOr<NetlinkDump> FakeRtnetlinkSource::Dump() {
  ++dumps_;
  if (failing_dumps_ > 0) {
    --failing_dumps_;
    return Status::IoError("injected dump failure");
  }
  return dump_;
}

}  // namespace rocewatch
