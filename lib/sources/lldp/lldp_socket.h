#pragma once
// The seam between rocewatch and the wire for LLDP: one receive-only socket per netdev. The real
// one is PacketLldpSocket (lldp/packet_lldp_socket.h, AF_PACKET); tests use FakeLldpSocket
// (tests/support/fake_lldp_socket.h), fed frames by hand.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// What one non-blocking read pass returned.
struct LldpReceived {
  std::vector<std::vector<uint8_t>>
      frames;  // whole Ethernet frames, at most kLldpMaxFrameBytes each
  // Frames the kernel dropped for a full receive queue since the last pass (PACKET_STATISTICS).
  uint64_t kernel_drops = 0;
  // True when the pass stopped at its frame limit with more still queued.
  bool more_queued = false;
};

// Longest frame kept: a standard Ethernet frame with one VLAN tag. LLDPDUs are at most 1500
// bytes; a longer frame is truncated to this and will usually not parse.
inline constexpr size_t kLldpMaxFrameBytes = 1522;

class LldpSocket {
 public:
  virtual ~LldpSocket() = default;
  // The descriptor to watch for readability on the event loop; -1 when there is none (a fake
  // driven by the test).
  virtual int fd() const = 0;
  // Reads the queued frames without blocking, at most `max_frames` of them. Frames this host sent
  // (another LLDP agent on it) are never returned. An error is a failed socket (the netdev went
  // away): close it and open again later.
  virtual StatusOr<LldpReceived> Read(size_t max_frames) = 0;
};

// Opens the receive socket of one netdev. Errors: NotFound for a netdev that does not exist,
// PermissionDenied without CAP_NET_RAW, IoError otherwise.
using LldpSocketOpener =
    std::function<StatusOr<std::unique_ptr<LldpSocket>>(const std::string& netdev)>;

}  // namespace rocewatch
