#include "lldp/lldp_frame.h"

#include <arpa/inet.h>

#include <cstdio>

#include "core/utf8.h"

namespace rocewatch {
namespace {

using Bytes = std::span<const uint8_t>;

// TLV types (802.1AB Table 8-1).
enum TlvType : uint8_t {
  kEnd = 0,
  kChassisId = 1,
  kPortId = 2,
  kTtl = 3,
  kPortDescription = 4,
  kSystemName = 5,
  kSystemDescription = 6,
  kSystemCapabilities = 7,
  kManagementAddress = 8,
  kOrganizationSpecific = 127,
};

constexpr uint32_t kOuiIeee8021 = 0x0080c2;
constexpr uint32_t kOuiIeee8023 = 0x00120f;
constexpr uint8_t kSubtypeEtsConfiguration = 0x09;
constexpr uint8_t kSubtypeEtsRecommendation = 0x0a;
constexpr uint8_t kSubtypePfcConfiguration = 0x0b;
constexpr uint8_t kSubtypeAppPriority = 0x0c;
constexpr uint8_t kSubtypeMacPhy = 1;
constexpr uint8_t kSubtypeMaxFrameSize = 4;

uint16_t Be16(Bytes b, size_t at) { return static_cast<uint16_t>((b[at] << 8) | b[at + 1]); }

std::string Hex(Bytes bytes, char separator) {
  std::string out;
  char digits[4];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(digits, sizeof(digits), "%02x", bytes[i]);
    if (i > 0 && separator != 0) out += separator;
    out += digits;
  }
  return out;
}

// Valid UTF-8 with C0 and C1 control characters and DEL replaced by U+FFFD: safe as a label, in
// JSON and on a terminal (an ESC or a C1 CSI from the wire could otherwise drive it).
std::string SanitizedText(Bytes bytes) {
  std::string valid =
      ToValidUtf8(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    auto c = static_cast<unsigned char>(valid[i]);
    bool c1 = c == 0xc2 && i + 1 < valid.size() &&
              static_cast<unsigned char>(valid[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(valid[i + 1]) <= 0x9f;
    if (c < 0x20 || c == 0x7f || c1) {
      out += "\xef\xbf\xbd";
      if (c1) ++i;
    } else {
      out += valid[i];
    }
  }
  return out;
}

// An IANA-family-prefixed address (network-address IDs, management addresses).
std::string FormatNetworkAddress(Bytes bytes) {
  if (bytes.empty()) return "";
  uint8_t family = bytes[0];
  Bytes address = bytes.subspan(1);
  char text[INET6_ADDRSTRLEN] = {};
  if (family == 1 && address.size() == 4 && inet_ntop(AF_INET, address.data(), text, sizeof(text)))
    return text;
  if (family == 2 && address.size() == 16 &&
      inet_ntop(AF_INET6, address.data(), text, sizeof(text)))
    return text;
  if (family == 6 && address.size() == 6) return FormatMac(address);
  return "family " + std::to_string(family) + ": " + Hex(address, 0);
}

// REQUIRES: value.size() >= 2 (subtype + at least one byte), checked by the caller.
LldpId DecodeId(Bytes value, bool is_chassis) {
  LldpId id;
  id.subtype = value[0];
  Bytes rest = value.subspan(1);
  bool mac = is_chassis ? id.subtype == kChassisMacAddress : id.subtype == kPortMacAddress;
  bool network =
      is_chassis ? id.subtype == kChassisNetworkAddress : id.subtype == kPortNetworkAddress;
  if (mac) {
    id.value = FormatMac(rest);
  } else if (network) {
    id.value = FormatNetworkAddress(rest);
  } else {
    id.value = SanitizedText(rest);
  }
  return id;
}

// False when the content's length is wrong for the TLV (the TLV is skipped).
bool DecodeManagementAddress(Bytes v, LldpFrame& frame) {
  if (v.size() < 9) return false;
  size_t address_length = v[0];  // counts the family byte
  if (address_length < 2 || address_length > 32 || 1 + address_length + 5 + 1 > v.size())
    return false;
  size_t oid_at = 1 + address_length + 5;
  if (oid_at + 1 + v[oid_at] != v.size()) return false;
  if (frame.management_addresses.size() >= kMaxManagementAddresses) return false;
  LldpManagementAddress m;
  m.family = v[1];
  m.address = FormatNetworkAddress(v.subspan(1, address_length));
  m.interface_numbering = v[1 + address_length];
  m.interface_number = (uint32_t{v[2 + address_length]} << 24) |
                       (uint32_t{v[3 + address_length]} << 16) |
                       (uint32_t{v[4 + address_length]} << 8) | v[5 + address_length];
  frame.management_addresses.push_back(std::move(m));
  return true;
}

LldpEts DecodeEtsTables(Bytes tables) {  // REQUIRES: tables.size() == 20
  LldpEts ets;
  for (int p = 0; p < 8; ++p) {
    uint8_t byte = tables[p / 2];
    ets.priority_tc[p] = (p % 2 == 0) ? byte >> 4 : byte & 0x0f;
  }
  for (int tc = 0; tc < 8; ++tc) {
    ets.tc_bandwidth_percent[tc] = tables[4 + tc];
    ets.tc_algorithm[tc] = tables[12 + tc];
  }
  return ets;
}

// `info` is what follows OUI and subtype. False for a malformed, repeated or unknown TLV.
bool DecodeIeee8021(uint8_t subtype, Bytes info, LldpFrame& frame) {
  switch (subtype) {
    case kSubtypePfcConfiguration:
      if (info.size() != 2 || frame.pfc) return false;
      frame.pfc = LldpPfc{.willing = (info[0] & 0x80) != 0,
                          .mbc = (info[0] & 0x40) != 0,
                          .capability = static_cast<uint8_t>(info[0] & 0x0f),
                          .enabled = info[1]};
      return true;
    case kSubtypeEtsConfiguration: {
      if (info.size() != 21 || frame.ets_configuration) return false;
      LldpEts ets = DecodeEtsTables(info.subspan(1));
      ets.willing = (info[0] & 0x80) != 0;
      ets.cbs = (info[0] & 0x40) != 0;
      ets.max_tcs = info[0] & 0x07;
      frame.ets_configuration = ets;
      return true;
    }
    case kSubtypeEtsRecommendation:
      if (info.size() != 21 || frame.ets_recommendation) return false;
      frame.ets_recommendation = DecodeEtsTables(info.subspan(1));
      return true;
    case kSubtypeAppPriority:
      // One reserved byte, then 3-byte entries: priority (3 bits), reserved (2), selector (3),
      // protocol ID (16).
      if (info.empty() || (info.size() - 1) % 3 != 0 || !frame.app_priorities.empty()) return false;
      for (size_t at = 1; at + 3 <= info.size(); at += 3)
        frame.app_priorities.push_back({.priority = static_cast<uint8_t>(info[at] >> 5),
                                        .selector = static_cast<uint8_t>(info[at] & 0x07),
                                        .protocol = Be16(info, at + 1)});
      return true;
    default:
      return false;
  }
}

bool DecodeIeee8023(uint8_t subtype, Bytes info, LldpFrame& frame) {
  if (subtype == kSubtypeMacPhy) {
    if (info.size() != 5 || frame.mac_phy) return false;
    frame.mac_phy = LldpMacPhy{.autoneg_supported = (info[0] & 0x01) != 0,
                               .autoneg_enabled = (info[0] & 0x02) != 0,
                               .advertised_capabilities = Be16(info, 1),
                               .operational_mau_type = Be16(info, 3)};
    return true;
  }
  if (subtype == kSubtypeMaxFrameSize) {
    if (info.size() != 2 || frame.max_frame_size) return false;
    frame.max_frame_size = Be16(info, 0);
    return true;
  }
  return false;
}

bool DecodeOrganizationSpecific(Bytes v, LldpFrame& frame) {
  if (v.size() < 4) return false;
  uint32_t oui = (uint32_t{v[0]} << 16) | (uint32_t{v[1]} << 8) | v[2];
  if (oui == kOuiIeee8021) return DecodeIeee8021(v[3], v.subspan(4), frame);
  if (oui == kOuiIeee8023) return DecodeIeee8023(v[3], v.subspan(4), frame);
  return false;
}

bool SetOnce(std::optional<std::string>& field, Bytes v) {
  if (field || v.empty()) return false;
  field = SanitizedText(v);
  return true;
}

// An optional TLV (type 4 and above). False when it is skipped.
bool DecodeOptional(uint8_t type, Bytes v, LldpFrame& frame) {
  switch (type) {
    case kPortDescription:
      return SetOnce(frame.port_description, v);
    case kSystemName:
      return SetOnce(frame.system_name, v);
    case kSystemDescription:
      return SetOnce(frame.system_description, v);
    case kSystemCapabilities:
      if (v.size() != 4 || frame.capabilities) return false;
      frame.capabilities = LldpCapabilities{Be16(v, 0), Be16(v, 2)};
      return true;
    case kManagementAddress:
      return DecodeManagementAddress(v, frame);
    case kOrganizationSpecific:
      return DecodeOrganizationSpecific(v, frame);
    default:
      return false;
  }
}

Status Invalid(const std::string& why) { return Status::InvalidArgument("LLDP frame: " + why); }

// The mandatory TLV at position `index` (0 chassis ID, 1 port ID, 2 TTL), checked and decoded.
Status DecodeMandatory(int index, uint8_t type, Bytes v, LldpFrame& frame) {
  static constexpr const char* kNames[] = {"chassis ID", "port ID", "TTL"};
  if (type != index + 1)
    return Invalid(std::string("TLV ") + std::to_string(index + 1) + " is of type " +
                   std::to_string(type) + ", not " + kNames[index]);
  if (index == 2) {
    if (v.size() != 2) return Invalid("TTL TLV of length " + std::to_string(v.size()));
    frame.ttl_seconds = Be16(v, 0);
    return Status::Ok();
  }
  if (v.size() < 2 || v.size() > 256)
    return Invalid(std::string(kNames[index]) + " TLV of length " + std::to_string(v.size()));
  (index == 0 ? frame.chassis_id : frame.port_id) = DecodeId(v, index == 0);
  return Status::Ok();
}

}  // namespace

std::string FormatMac(std::span<const uint8_t> bytes) { return Hex(bytes, ':'); }

StatusOr<LldpFrame> ParseLldpdu(std::span<const uint8_t> lldpdu) {
  LldpFrame frame;
  size_t at = 0;
  int index = 0;
  for (; at < lldpdu.size(); ++index) {
    if (lldpdu.size() - at < 2)
      return Invalid("truncated TLV header at byte " + std::to_string(at));
    uint8_t type = lldpdu[at] >> 1;
    size_t length = ((lldpdu[at] & 0x01) << 8) | lldpdu[at + 1];
    at += 2;
    if (length > lldpdu.size() - at)
      return Invalid("TLV of type " + std::to_string(type) + " runs past the frame");
    Bytes value = lldpdu.subspan(at, length);
    at += length;
    if (index < 3) {
      if (Status s = DecodeMandatory(index, type, value, frame); !s.ok()) return s;
      continue;
    }
    if (type == kEnd) return frame;  // what follows End (padding) is not read
    if (type <= kTtl) return Invalid("a second TLV of type " + std::to_string(type));
    if (!DecodeOptional(type, value, frame)) ++frame.skipped_tlvs;
  }
  if (index < 3) return Invalid("ends before its chassis ID, port ID and TTL TLVs");
  return frame;  // no End TLV: tolerated (some senders omit it)
}

StatusOr<LldpFrame> ParseLldpFrame(std::span<const uint8_t> frame) {
  constexpr size_t kMacs = 12;
  if (frame.size() < kMacs + 2) return Invalid("shorter than an Ethernet header");
  size_t at = kMacs;
  uint16_t ethertype = Be16(frame, at);
  if (ethertype == 0x8100 || ethertype == 0x88a8) {  // one VLAN tag
    if (frame.size() < kMacs + 6) return Invalid("truncated VLAN tag");
    at += 4;
    ethertype = Be16(frame, at);
  }
  if (ethertype != kLldpEthertype) return Invalid("ethertype " + Hex(frame.subspan(at, 2), 0));
  StatusOr<LldpFrame> decoded = ParseLldpdu(frame.subspan(at + 2));
  if (!decoded.ok()) return decoded;
  decoded.value().source_mac = FormatMac(frame.subspan(6, 6));
  return decoded;
}

std::optional<uint8_t> LldpFrame::RoceV2Priority() const {
  std::optional<uint8_t> priority;
  for (const LldpAppPriority& entry : app_priorities)
    if ((entry.selector == 3 || entry.selector == 4) && entry.protocol == kRoceV2UdpPort &&
        (!priority || entry.priority > *priority))
      priority = entry.priority;
  return priority;
}

bool LldpFrame::IsSwitch() const {
  return capabilities && (capabilities->supported & (kCapabilityBridge | kCapabilityRouter)) != 0;
}

}  // namespace rocewatch
