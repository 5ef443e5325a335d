#include "model/policy_rule.h"

#include <arpa/inet.h>

#include <cstring>

namespace rocewatch {
namespace {

// The address as 16 bytes (IPv4 in the first 4); false if unparsable.
bool ToBytes(AddressFamily family, const std::string& text, unsigned char out[16]) {
  std::memset(out, 0, 16);
  return inet_pton(family == AddressFamily::kIpv4 ? AF_INET : AF_INET6, text.c_str(), out) == 1;
}

}  // namespace

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

bool RuleCoversAddress(const PolicyRule& rule, const IpAddress& address) {
  if (rule.family != address.family || rule.src.empty()) return false;
  unsigned char net[16], addr[16];
  if (!ToBytes(rule.family, rule.src, net) || !ToBytes(address.family, address.address, addr))
    return false;
  unsigned bits = rule.src_len;
  unsigned max_bits = rule.family == AddressFamily::kIpv4 ? 32 : 128;
  if (bits > max_bits) return false;
  for (unsigned i = 0; i < bits; ++i) {
    unsigned char mask = static_cast<unsigned char>(0x80 >> (i % 8));
    if ((net[i / 8] & mask) != (addr[i / 8] & mask)) return false;
  }
  return true;
}

}  // namespace rocewatch
