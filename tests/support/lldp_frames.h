#pragma once
// LLDP frames for tests, byte by byte as IEEE 802.1AB lays them out: an Ethernet header to the
// nearest-bridge address, then TLVs (7-bit type, 9-bit length, value) and the End TLV.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocewatch {

class LldpFrameBuilder {
 public:
  // A switch "leaf-07" (chassis MAC 02:00:00:00:00:07, bridge and router) on port "swp<port>",
  // TTL 120.
  static LldpFrameBuilder Leaf(int leaf, int port);

  LldpFrameBuilder& SourceMac(uint8_t last_byte);
  LldpFrameBuilder& ChassisMac(uint8_t last_byte);
  LldpFrameBuilder& PortName(const std::string& name);
  LldpFrameBuilder& Ttl(uint16_t seconds);
  LldpFrameBuilder& SystemName(const std::string& name);
  LldpFrameBuilder& PortDescription(const std::string& text);
  LldpFrameBuilder& Capabilities(uint16_t supported, uint16_t enabled);
  LldpFrameBuilder& Pfc(uint8_t enabled_priorities, uint8_t capability = 8);
  LldpFrameBuilder& RocePriority(uint8_t priority);  // application priority: UDP 4791
  LldpFrameBuilder& MaxFrameSize(uint16_t bytes);
  // Any TLV, raw.
  LldpFrameBuilder& Tlv(uint8_t type, const std::vector<uint8_t>& value);

  std::vector<uint8_t> Build() const;

 private:
  uint8_t source_mac_ = 0x07;
  uint8_t chassis_mac_ = 0x07;
  std::string port_ = "swp1";
  uint16_t ttl_ = 120;
  std::vector<std::vector<uint8_t>> optional_;
};

}  // namespace rocewatch
