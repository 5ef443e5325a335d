#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

std::vector<uint8_t> TlvBytes(uint8_t type, const std::vector<uint8_t>& value) {
  std::vector<uint8_t> out = {static_cast<uint8_t>((type << 1) | ((value.size() >> 8) & 1)),
                              static_cast<uint8_t>(value.size() & 0xff)};
  out.insert(out.end(), value.begin(), value.end());
  return out;
}

std::vector<uint8_t> Text(uint8_t subtype, const std::string& text) {
  std::vector<uint8_t> out = {subtype};
  out.insert(out.end(), text.begin(), text.end());
  return out;
}

}  // namespace

LldpFrameBuilder LldpFrameBuilder::Leaf(int leaf, int port) {
  LldpFrameBuilder b;
  b.SourceMac(static_cast<uint8_t>(leaf)).ChassisMac(static_cast<uint8_t>(leaf));
  b.PortName("swp" + std::to_string(port));
  b.SystemName((leaf < 10 ? "leaf-0" : "leaf-") + std::to_string(leaf));
  b.Capabilities(0x14, 0x14);
  return b;
}

LldpFrameBuilder& LldpFrameBuilder::SourceMac(uint8_t last_byte) {
  source_mac_ = last_byte;
  return *this;
}
LldpFrameBuilder& LldpFrameBuilder::ChassisMac(uint8_t last_byte) {
  chassis_mac_ = last_byte;
  return *this;
}
LldpFrameBuilder& LldpFrameBuilder::PortName(const std::string& name) {
  port_ = name;
  return *this;
}
LldpFrameBuilder& LldpFrameBuilder::Ttl(uint16_t seconds) {
  ttl_ = seconds;
  return *this;
}
LldpFrameBuilder& LldpFrameBuilder::SystemName(const std::string& name) {
  return Tlv(5, std::vector<uint8_t>(name.begin(), name.end()));
}
LldpFrameBuilder& LldpFrameBuilder::PortDescription(const std::string& text) {
  return Tlv(4, std::vector<uint8_t>(text.begin(), text.end()));
}
LldpFrameBuilder& LldpFrameBuilder::Capabilities(uint16_t supported, uint16_t enabled) {
  return Tlv(7, {static_cast<uint8_t>(supported >> 8), static_cast<uint8_t>(supported),
                 static_cast<uint8_t>(enabled >> 8), static_cast<uint8_t>(enabled)});
}
LldpFrameBuilder& LldpFrameBuilder::Pfc(uint8_t enabled_priorities, uint8_t capability) {
  return Tlv(127, {0x00, 0x80, 0xc2, 0x0b, capability, enabled_priorities});
}
LldpFrameBuilder& LldpFrameBuilder::RocePriority(uint8_t priority) {
  return Tlv(127,
             {0x00, 0x80, 0xc2, 0x0c, 0x00, static_cast<uint8_t>((priority << 5) | 3), 0x12, 0xb7});
}
LldpFrameBuilder& LldpFrameBuilder::MaxFrameSize(uint16_t bytes) {
  return Tlv(
      127, {0x00, 0x12, 0x0f, 0x04, static_cast<uint8_t>(bytes >> 8), static_cast<uint8_t>(bytes)});
}
LldpFrameBuilder& LldpFrameBuilder::Tlv(uint8_t type, const std::vector<uint8_t>& value) {
  optional_.push_back(TlvBytes(type, value));
  return *this;
}

std::vector<uint8_t> LldpFrameBuilder::Build() const {
  std::vector<uint8_t> frame = {0x01, 0x80, 0xc2, 0x00, 0x00,        0x0e, 0x02,
                                0x00, 0x00, 0x00, 0x00, source_mac_, 0x88, 0xcc};
  auto append = [&frame](const std::vector<uint8_t>& bytes) {
    frame.insert(frame.end(), bytes.begin(), bytes.end());
  };
  append(TlvBytes(1, {4, 0x02, 0x00, 0x00, 0x00, 0x00, chassis_mac_}));
  append(TlvBytes(2, Text(5, port_)));
  append(TlvBytes(3, {static_cast<uint8_t>(ttl_ >> 8), static_cast<uint8_t>(ttl_)}));
  for (const std::vector<uint8_t>& tlv : optional_) append(tlv);
  append({0x00, 0x00});
  return frame;
}

}  // namespace rocewatch
