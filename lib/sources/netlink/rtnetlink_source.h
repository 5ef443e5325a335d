#pragma once
// Where rtnetlink messages come from. Abstract so that tests replay scripted messages and overruns
// (tests/support/fake_rtnetlink_source.h); the real one is LibnlRtnetlinkSource.

#include <vector>

#include "core/status.h"
#include "netlink/netlink_event.h"

namespace rocewatch {

// SO_RCVBUF of the event socket unless --netlink-receive-buffer says otherwise (the kernel
// doubles it). libnl's default is 32 KiB, which a burst of a few hundred address events overruns.
inline constexpr int kDefaultNetlinkReceiveBufferBytes = 4 << 20;

class RtnetlinkSource {
 public:
  enum class ReadResult {
    kDrained,  // no overrun: every queued message was read, or a bounded batch of them (the fd
               // then stays readable and the loop comes back)
    kOverrun,  // the kernel dropped messages (ENOBUFS): the state must be re-dumped
  };

  virtual ~RtnetlinkSource() = default;

  // Opens the event socket (subscribed to the link, address, rule and route groups, non-blocking)
  // and the dump socket, in the network namespace of the calling thread. Both stay bound to it.
  virtual Status Open() = 0;
  virtual void Close() = 0;
  // The event socket's fd for the event loop; -1 when not open.
  virtual int fd() const = 0;

  // Reads the queued messages without blocking and appends the watched ones to `out`, stamped
  // with the time of reading. Stops at an overrun (what was read before it is in `out`).
  // REQUIRES: Open() succeeded.
  virtual StatusOr<ReadResult> ReadPending(std::vector<NetlinkMessage>& out) = 0;

  // A complete dump of links, addresses, rules and routes (blocking, on the dump socket).
  // REQUIRES: Open() succeeded.
  virtual StatusOr<NetlinkDump> Dump() = 0;

  // Messages that failed to parse since Open(); they are skipped.
  virtual uint64_t malformed_messages() const = 0;
};

}  // namespace rocewatch
