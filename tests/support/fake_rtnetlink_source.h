#pragma once
// A scripted RtnetlinkSource: tests queue messages and overruns, set what a dump returns, and read
// what was asked of it. Its fd (an eventfd) is readable while messages are queued, so it works on a
// real EventLoop.

#include <deque>
#include <variant>
#include <vector>

#include "netlink/rtnetlink_source.h"

namespace rocewatch {

class FakeRtnetlinkSource final : public RtnetlinkSource {
 public:
  FakeRtnetlinkSource() = default;
  ~FakeRtnetlinkSource() override { Close(); }

  // Queues a message as the kernel would multicast it.
  void Push(NetlinkMessage message);
  // Queues an overrun: ReadPending stops there with kOverrun; messages queued after it survive
  // (they were sent after the kernel dropped some).
  void PushOverrun();
  // What the next dumps return (the namespace's state as the kernel knows it).
  void set_dump(NetlinkDump dump) { dump_ = std::move(dump); }
  NetlinkDump& dump() { return dump_; }
  // Makes the next `n` dumps fail with IoError.
  void FailDumps(int n) { failing_dumps_ = n; }
  void set_malformed(uint64_t n) { malformed_ = n; }

  Status Open() override;
  void Close() override;
  int fd() const override { return fd_; }
  StatusOr<ReadResult> ReadPending(std::vector<NetlinkMessage>& out) override;
  StatusOr<NetlinkDump> Dump() override;
  uint64_t malformed_messages() const override { return malformed_; }

  // What happened.
  int opens() const { return opens_; }
  int dumps() const { return dumps_; }
  int reads() const { return reads_; }
  size_t queued() const { return queue_.size(); }

 private:
  struct Overrun {};
  void Signal();
  std::deque<std::variant<NetlinkMessage, Overrun>> queue_;
  NetlinkDump dump_;
  int fd_ = -1;
  int failing_dumps_ = 0;
  uint64_t malformed_ = 0;
  int opens_ = 0, dumps_ = 0, reads_ = 0;
};

}  // namespace rocewatch
