#include "netlink/netlink_event.h"

#include <linux/if.h>

namespace rocewatch {

bool LinkMessage::admin_up() const { return (flags & IFF_UP) != 0; }

bool LinkMessage::has_carrier() const {
  if (carrier.has_value()) return *carrier;
  return (flags & IFF_LOWER_UP) != 0;
}

std::string PolicyRule::ToString() const {
  std::string out = "from ";
  out += src.empty() ? "all" : src + "/" + std::to_string(src_len);
  if (!dst.empty()) out += " to " + dst + "/" + std::to_string(dst_len);
  if (fwmark != 0) out += " fwmark " + std::to_string(fwmark);
  if (!iifname.empty()) out += " iif " + iifname;
  if (!oifname.empty()) out += " oif " + oifname;
  out += " lookup " + std::to_string(table);
  out += " prio " + std::to_string(priority);
  return out;
}

std::string Route::ToString() const {
  std::string out = dst.empty() ? "default" : dst + "/" + std::to_string(dst_len);
  if (!gateway.empty()) out += " via " + gateway;
  if (oif != 0) out += " dev#" + std::to_string(oif);
  if (!prefsrc.empty()) out += " src " + prefsrc;
  out += " table " + std::to_string(table);
  if (metric != 0) out += " metric " + std::to_string(metric);
  return out;
}

MonoTime MessageTime(const NetlinkMessage& message) {
  return std::visit([](const auto& m) { return m.at; }, message);
}

}  // namespace rocewatch
