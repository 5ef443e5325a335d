#include "model/gid.h"

#include <arpa/inet.h>

#include <cstdio>

namespace rocewatch {

const char* GidTypeLabel(GidType type) {
  switch (type) {
    case GidType::kIb:
      return "ib";
    case GidType::kRoceV1:
      return "roce_v1";
    case GidType::kRoceV2:
      return "roce_v2";
    case GidType::kUnknown:
      return "unknown";
  }
  return "unknown";
}

namespace {
// Parses the sysfs form (8 groups of 4 hex digits) into 16 bytes.
bool ParseGidBytes(std::string_view gid, unsigned char out[16]) {
  if (gid.size() != 39) return false;
  for (int group = 0; group < 8; ++group) {
    unsigned value = 0;
    for (int k = 0; k < 4; ++k) {
      char c = gid[group * 5 + k];
      value <<= 4;
      if (c >= '0' && c <= '9') {
        value |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        value |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        value |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    if (group < 7 && gid[group * 5 + 4] != ':') return false;
    out[group * 2] = static_cast<unsigned char>(value >> 8);
    out[group * 2 + 1] = static_cast<unsigned char>(value & 0xff);
  }
  return true;
}

std::string FormatGidBytes(const unsigned char b[16]) {
  char text[40];
  std::snprintf(text, sizeof(text),
                "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}
}  // namespace

bool IsZeroGid(std::string_view gid) {
  unsigned char b[16];
  if (!ParseGidBytes(gid, b)) return false;
  for (unsigned char c : b)
    if (c != 0) return false;
  return true;
}

bool IsLinkLocalGid(std::string_view gid) {
  unsigned char b[16];
  if (!ParseGidBytes(gid, b)) return false;
  return b[0] == 0xfe && (b[1] & 0xc0) == 0x80 && b[2] == 0 && b[3] == 0 && b[4] == 0 &&
         b[5] == 0 && b[6] == 0 && b[7] == 0;
}

bool IsIpv4MappedGid(std::string_view gid) {
  unsigned char b[16];
  if (!ParseGidBytes(gid, b)) return false;
  for (int i = 0; i < 10; ++i)
    if (b[i] != 0) return false;
  return b[10] == 0xff && b[11] == 0xff;
}

std::optional<std::string> Ipv4OfGid(std::string_view gid) {
  if (!IsIpv4MappedGid(gid)) return std::nullopt;
  unsigned char b[16];
  ParseGidBytes(gid, b);
  return std::to_string(b[12]) + "." + std::to_string(b[13]) + "." + std::to_string(b[14]) + "." +
         std::to_string(b[15]);
}

std::optional<std::string> GidOfAddress(std::string_view address) {
  std::string text(address);
  if (auto slash = text.find('/'); slash != std::string::npos) text.resize(slash);
  unsigned char b[16] = {};
  struct in_addr v4;
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    b[10] = 0xff;
    b[11] = 0xff;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(&v4.s_addr);
    for (int i = 0; i < 4; ++i) b[12 + i] = p[i];
    return FormatGidBytes(b);
  }
  struct in6_addr v6;
  if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) return FormatGidBytes(v6.s6_addr);
  return std::nullopt;
}

}  // namespace rocewatch
