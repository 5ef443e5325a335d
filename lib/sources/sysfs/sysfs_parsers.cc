#include "sysfs/sysfs_parsers.h"

#include <charconv>

#include "core/text.h"

namespace rocewatch {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool HasControlBytes(std::string_view text) {
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

// A short, printable excerpt of bad input for error messages.
std::string Quote(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kMax; ++i) {
    auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x20 || u >= 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    } else {
      out += text[i];
    }
  }
  if (text.size() > kMax) out += "...";
  return out + "\"";
}

bool ParseDecimal(std::string_view digits, uint64_t* value) {
  if (digits.empty()) return false;
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *value);
  return ec == std::errc() && end == digits.data() + digits.size();
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

StatusOr<SysfsPortState> ParsePortState(std::string_view text) {
  std::string_view trimmed = Trim(text);
  size_t colon = trimmed.find(':');
  if (colon == std::string_view::npos) {
    return Status::InvalidArgument("port state without ':': " + Quote(text));
  }
  uint64_t code = 0;
  if (!ParseDecimal(trimmed.substr(0, colon), &code) || code > UINT32_MAX) {
    return Status::InvalidArgument("port state without a number: " + Quote(text));
  }
  std::string_view name = Trim(trimmed.substr(colon + 1));
  if (name.empty() || HasControlBytes(name)) {
    return Status::InvalidArgument("port state without a name: " + Quote(text));
  }
  return SysfsPortState{static_cast<uint32_t>(code), std::string(name)};
}

StatusOr<uint64_t> ParseCounterValue(std::string_view text) {
  uint64_t value = 0;
  if (!ParseDecimal(Trim(text), &value)) {
    return Status::InvalidArgument("counter is not an unsigned 64-bit number: " + Quote(text));
  }
  return value;
}

StatusOr<std::string> ParseGid(std::string_view text) {
  std::string_view gid = Trim(text);
  constexpr size_t kGidLength = 39;
  bool ok = gid.size() == kGidLength;
  std::string out;
  out.reserve(kGidLength);
  for (size_t i = 0; ok && i < kGidLength; ++i) {
    if (i % 5 == 4) {
      ok = gid[i] == ':';
      out += ':';
    } else {
      int v = HexValue(gid[i]);
      ok = v >= 0;
      out += "0123456789abcdef"[v < 0 ? 0 : v];
    }
  }
  if (!ok) return Status::InvalidArgument("not a GID (8 groups of 4 hex digits): " + Quote(text));
  return out;
}

GidType ParseGidType(std::string_view text) {
  std::string_view type = Trim(text);
  if (type == "IB/RoCE v1") return GidType::kRoceV1;
  if (type == "RoCE v2") return GidType::kRoceV2;
  if (type == "IB") return GidType::kIb;
  return GidType::kUnknown;
}

StatusOr<std::string> ParseNetdevName(std::string_view text) {
  constexpr size_t kIfNameSize = 16;  // IFNAMSIZ, including the terminating NUL
  std::string_view name = Trim(text);
  if (name.empty()) return Status::InvalidArgument("empty netdev name");
  if (name == "." || name == "..")
    return Status::InvalidArgument("invalid netdev name: " + Quote(text));
  if (name.size() >= kIfNameSize) {
    return Status::InvalidArgument("netdev name longer than 15 bytes: " + Quote(text));
  }
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (c == '/' || IsBlank(c) || u < 0x20 || u == 0x7f || c == ':') {
      return Status::InvalidArgument("invalid netdev name: " + Quote(text));
    }
  }
  return std::string(name);
}

std::string ParsePlainText(std::string_view text) { return std::string(Trim(text)); }

std::optional<uint32_t> ParseEntryNumber(std::string_view name) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
  if (name.empty() || ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return value;
}

std::string PortStateName(std::string_view text) {
  auto state = ParsePortState(text);
  return state.ok() ? state->name : ParsePlainText(text);
}

bool IsHwCounterSetting(std::string_view name) { return name == "lifespan"; }

}  // namespace rocewatch
