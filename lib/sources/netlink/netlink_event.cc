#include "netlink/netlink_event.h"

#include <linux/if.h>

namespace rocewatch {

bool LinkMessage::admin_up() const { return (flags & IFF_UP) != 0; }

bool LinkMessage::has_carrier() const {
  if (carrier.has_value()) return *carrier;
  return (flags & IFF_LOWER_UP) != 0;
}

MonoTime MessageTime(const NetlinkMessage& message) {
  return std::visit([](const auto& m) { return m.at; }, message);
}

}  // namespace rocewatch
