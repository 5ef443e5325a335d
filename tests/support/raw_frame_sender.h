#pragma once
// Sends whole Ethernet frames, any bytes, out of one netdev (AF_PACKET, SOCK_RAW): the hostile
// neighbor of the LLDP tests. Opened in the calling thread's network namespace; needs root.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

class RawFrameSender {
 public:
  static StatusOr<std::unique_ptr<RawFrameSender>> Open(const std::string& netdev);
  ~RawFrameSender();
  RawFrameSender(const RawFrameSender&) = delete;
  RawFrameSender& operator=(const RawFrameSender&) = delete;

  Status Send(const std::vector<uint8_t>& frame) const;

 private:
  RawFrameSender(int fd, int ifindex) : fd_(fd), ifindex_(ifindex) {}
  int fd_;
  int ifindex_;
};

}  // namespace rocewatch
