#include "support/raw_frame_sender.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rocewatch {

StatusOr<std::unique_ptr<RawFrameSender>> RawFrameSender::Open(const std::string& netdev) {
  int ifindex = static_cast<int>(if_nametoindex(netdev.c_str()));
  if (ifindex == 0) return Status::FromErrno(errno, netdev);
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);  // protocol 0: receives nothing
  if (fd < 0) return Status::FromErrno(errno, "AF_PACKET socket");
  return std::unique_ptr<RawFrameSender>(new RawFrameSender(fd, ifindex));
}

RawFrameSender::~RawFrameSender() { close(fd_); }

Status RawFrameSender::Send(const std::vector<uint8_t>& frame) const {
  sockaddr_ll to{};
  to.sll_family = AF_PACKET;
  to.sll_ifindex = ifindex_;
  to.sll_halen = 6;
  for (int i = 0; i < 6 && i < static_cast<int>(frame.size()); ++i) to.sll_addr[i] = frame[i];
  ssize_t n =
      sendto(fd_, frame.data(), frame.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to));
  if (n < 0) return Status::FromErrno(errno, "sendto");
  return Status::Ok();
}

}  // namespace rocewatch
