#pragma once
// A routing policy rule (`ip rule`), as rtnetlink reports it (RTM_NEWRULE / RTM_DELRULE).
// Multi-rail RoCE hosts steer each RNIC's traffic with `ip rule from <rnic ip> lookup <table>`.

#include <cstdint>
#include <string>

#include "model/netdev.h"

namespace rocewatch {

// Compared on every field.
struct PolicyRule {
  AddressFamily family = AddressFamily::kIpv4;
  std::string src;  // FRA_SRC, "" for any
  uint8_t src_len = 0;
  std::string dst;  // FRA_DST, "" for any
  uint8_t dst_len = 0;
  uint32_t table = 0;     // FRA_TABLE or the header's table
  uint32_t priority = 0;  // FRA_PRIORITY
  uint8_t action = 0;     // FR_ACT_*
  uint32_t fwmark = 0;    // FRA_FWMARK
  std::string iifname;    // FRA_IIFNAME
  std::string oifname;    // FRA_OIFNAME

  // "from 10.0.0.2/32 lookup 100 prio 1000" (iproute2-like).
  std::string ToString() const;
  auto operator<=>(const PolicyRule&) const = default;
};

// True if `rule` selects traffic from `address` (same family, source prefix contains it).
bool RuleCoversAddress(const PolicyRule& rule, const IpAddress& address);

}  // namespace rocewatch
