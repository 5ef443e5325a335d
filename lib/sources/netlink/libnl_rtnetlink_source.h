#pragma once
// The real RtnetlinkSource, on libnl-3: one non-blocking socket subscribed to RTNLGRP_LINK,
// IPV4/IPV6_IFADDR, IPV4/IPV6_RULE and IPV4/IPV6_ROUTE, one blocking socket for dumps.
// Threading: one thread at a time (the event-loop thread).

#include <netlink/handlers.h>
#include <netlink/socket.h>

#include "core/clock.h"
#include "netlink/rtnetlink_source.h"

namespace rocewatch {

class LibnlRtnetlinkSource final : public RtnetlinkSource {
 public:
  struct Options {
    // SO_RCVBUF of the event socket. SO_RCVBUFFORCE is tried first (root), so the value is not
    // capped by net.core.rmem_max there. Tests set it tiny to force overruns.
    int receive_buffer_bytes = kDefaultNetlinkReceiveBufferBytes;
    // Receives per ReadPending call, so that a storm does not starve the rest of the event loop.
    int max_receives_per_read = 4096;
  };

  // `clock` stamps each message; it must outlive this object.
  explicit LibnlRtnetlinkSource(const Clock& clock) : LibnlRtnetlinkSource(clock, Options()) {}
  LibnlRtnetlinkSource(const Clock& clock, Options options) : clock_(clock), options_(options) {}
  ~LibnlRtnetlinkSource() override { Close(); }
  LibnlRtnetlinkSource(const LibnlRtnetlinkSource&) = delete;
  LibnlRtnetlinkSource& operator=(const LibnlRtnetlinkSource&) = delete;

  Status Open() override;
  void Close() override;
  int fd() const override;
  StatusOr<ReadResult> ReadPending(std::vector<NetlinkMessage>& out) override;
  StatusOr<NetlinkDump> Dump() override;
  uint64_t malformed_messages() const override { return malformed_; }

  // The receive buffer the kernel actually granted (getsockopt SO_RCVBUF), 0 when closed.
  int granted_receive_buffer() const;

 private:
  static int OnMessage(nl_msg* msg, void* self);
  Status DumpOne(int type, std::vector<NetlinkMessage>& out);

  const Clock& clock_;
  const Options options_;
  nl_sock* events_ = nullptr;
  nl_sock* dumps_ = nullptr;
  std::vector<NetlinkMessage>* collecting_ = nullptr;  // where OnMessage appends, during a read
  MonoTime reading_at_{};
  uint64_t malformed_ = 0;
};

}  // namespace rocewatch
