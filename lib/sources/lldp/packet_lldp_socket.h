#pragma once
// The real LldpSocket: an AF_PACKET socket bound to one netdev and to ethertype 0x88cc
// (ETH_P_LLDP), joined to the three IEEE 802.1AB destination addresses (nearest bridge
// 01:80:c2:00:00:0e, nearest non-TPMR bridge 01:80:c2:00:00:03, nearest customer bridge
// 01:80:c2:00:00:00) with PACKET_ADD_MEMBERSHIP, with a classic BPF filter that accepts ethertype
// 0x88cc only (so no other frame wakes the loop, even between socket() and bind()) and ignores this
// host's own outgoing frames (PACKET_IGNORE_OUTGOING; lldpd on the host would otherwise be read as
// the neighbor). It never transmits. Needs CAP_NET_RAW in the netdev's network namespace.

#include <memory>
#include <string>

#include "lldp/lldp_socket.h"

namespace rocewatch {

class PacketLldpSocket final : public LldpSocket {
 public:
  // Opens the socket of `netdev` in the calling thread's network namespace.
  static StatusOr<std::unique_ptr<LldpSocket>> Open(const std::string& netdev);
  ~PacketLldpSocket() override;
  PacketLldpSocket(const PacketLldpSocket&) = delete;
  PacketLldpSocket& operator=(const PacketLldpSocket&) = delete;

  int fd() const override { return fd_; }
  StatusOr<LldpReceived> Read(size_t max_frames) override;

 private:
  PacketLldpSocket(int fd, std::string netdev) : fd_(fd), netdev_(std::move(netdev)) {}
  int fd_;
  std::string netdev_;
};

// The receive buffer of each socket (SO_RCVBUF): room for a burst of a few dozen frames; beyond it
// the kernel drops and counts (LldpReceived::kernel_drops), so a flood costs no memory.
inline constexpr int kLldpReceiveBufferBytes = 64 * 1024;

}  // namespace rocewatch
