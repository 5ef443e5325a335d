// ParseRtnetlinkMessage (lib/sources/netlink/rtnetlink_message.h): one rtnetlink message as the
// kernel (or anything able to send to our socket) delivers it. The input is a buffer of messages
// walked as the listener walks a recv() buffer: each parsed at its offset, advanced by its aligned
// length.
#include <linux/netlink.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "netlink/rtnetlink_message.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A copy with the alignment of a recv() buffer, so the parser sees what it would see there.
  std::vector<uint32_t> aligned((size + 3) / 4);
  if (size > 0) std::memcpy(aligned.data(), data, size);
  const auto* buffer = reinterpret_cast<const uint8_t*>(aligned.data());
  size_t offset = 0;
  for (int messages = 0; offset + sizeof(nlmsghdr) <= size && messages < 64; ++messages) {
    StatusOr<std::optional<NetlinkMessage>> message =
        ParseRtnetlinkMessage(buffer + offset, size - offset, MonoTime{});
    if (!message.ok()) break;  // the listener counts it and drops the rest of the buffer
    nlmsghdr header;
    std::memcpy(&header, buffer + offset, sizeof(header));
    FUZZ_CHECK(header.nlmsg_len >= sizeof(nlmsghdr) && header.nlmsg_len <= size - offset);
    offset += NLMSG_ALIGN(header.nlmsg_len);
  }
  (void)OperstateName(size > 0 ? data[0] : 0);
  return 0;
}
