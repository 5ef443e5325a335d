#include "lldp/packet_lldp_socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cstring>

#include "lldp/lldp_frame.h"

namespace rocewatch {
namespace {

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23  // linux/if_packet.h since 4.20
#endif

constexpr std::array<std::array<uint8_t, 6>, 3> kLldpDestinations = {{
    {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e},  // nearest bridge
    {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03},  // nearest non-TPMR bridge
    {0x01, 0x80, 0xc2, 0x00, 0x00, 0x00},  // nearest customer bridge
}};

// ldh [12]; jeq #0x88cc, accept, drop. Accepts at most kLldpMaxFrameBytes of a frame.
Status AttachEthertypeFilter(int fd) {
  static sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kLldpEthertype, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, static_cast<uint32_t>(kLldpMaxFrameBytes)),
      BPF_STMT(BPF_RET | BPF_K, 0),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof(code) / sizeof(code[0])), code};
  if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof(program)) != 0)
    return Status::FromErrno(errno, "SO_ATTACH_FILTER");
  return Status::Ok();
}

Status Configure(int fd, unsigned ifindex, const std::string& netdev) {
  if (Status s = AttachEthertypeFilter(fd); !s.ok()) return s;
  int one = 1;
  // Best effort: before 4.20 outgoing frames are filtered in Read by their packet type.
  (void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
  int buffer = kLldpReceiveBufferBytes;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer)) != 0)
    return Status::FromErrno(errno, "SO_RCVBUF");
  sockaddr_ll address{};
  address.sll_family = AF_PACKET;
  address.sll_protocol = htons(ETH_P_LLDP);
  address.sll_ifindex = static_cast<int>(ifindex);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    return Status::FromErrno(errno, "bind AF_PACKET to " + netdev);
  for (const auto& destination : kLldpDestinations) {
    packet_mreq membership{};
    membership.mr_ifindex = static_cast<int>(ifindex);
    membership.mr_type = PACKET_MR_MULTICAST;
    membership.mr_alen = destination.size();
    std::memcpy(membership.mr_address, destination.data(), destination.size());
    if (setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &membership, sizeof(membership)) != 0)
      return Status::FromErrno(errno, "PACKET_ADD_MEMBERSHIP on " + netdev);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::unique_ptr<LldpSocket>> PacketLldpSocket::Open(const std::string& netdev) {
  if (netdev.empty() || netdev.size() >= IFNAMSIZ)
    return Status::InvalidArgument("not a netdev name: " + netdev);
  unsigned ifindex = if_nametoindex(netdev.c_str());
  if (ifindex == 0) return Status::FromErrno(errno == 0 ? ENODEV : errno, netdev);
  // Protocol 0: the socket receives nothing until bind() names the protocol and the netdev,
  // with the filter already in place.
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    const int error = errno;
    return Status::FromErrno(
        error, "AF_PACKET socket for " + netdev + (error == EPERM ? " (needs CAP_NET_RAW)" : ""));
  }
  if (Status s = Configure(fd, ifindex, netdev); !s.ok()) {
    close(fd);
    return s;
  }
  return std::unique_ptr<LldpSocket>(new PacketLldpSocket(fd, netdev));
}

PacketLldpSocket::~PacketLldpSocket() { close(fd_); }

StatusOr<LldpReceived> PacketLldpSocket::Read(size_t max_frames) {
  LldpReceived received;
  uint8_t buffer[kLldpMaxFrameBytes];
  size_t reads = 0;  // frames skipped as outgoing count too: the pass is bounded either way
  for (; reads < max_frames; ++reads) {
    sockaddr_ll from{};
    socklen_t from_length = sizeof(from);
    ssize_t n = recvfrom(fd_, buffer, sizeof(buffer), MSG_TRUNC, reinterpret_cast<sockaddr*>(&from),
                         &from_length);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      if (errno == EINTR) continue;  // counted as a read: bounded
      return Status::FromErrno(errno, "recvfrom on the LLDP socket of " + netdev_);
    }
    if (from.sll_pkttype == PACKET_OUTGOING) continue;  // sent by this host
    size_t kept = std::min(static_cast<size_t>(n), sizeof(buffer));
    received.frames.emplace_back(buffer, buffer + kept);
  }
  received.more_queued = reads >= max_frames;
  tpacket_stats stats{};
  socklen_t stats_length = sizeof(stats);
  // Reading the statistics resets them: each pass reports the drops since the previous one.
  if (getsockopt(fd_, SOL_PACKET, PACKET_STATISTICS, &stats, &stats_length) == 0)
    received.kernel_drops = stats.tp_drops;
  return received;
}

}  // namespace rocewatch
