#pragma once
// LLDP frames (IEEE 802.1AB-2016) as they come off the wire: untrusted bytes, decoded by a pure
// function into what rocewatch needs to know about the far end of a rail (docs/detection.md,
// "Fabric: the rail's LLDP neighbor").
//
// Decoded TLVs: chassis ID and port ID (every subtype), TTL, port description, system name,
// system description, system capabilities, management address; the IEEE 802.1 organizationally
// specific TLVs (OUI 00-80-C2) PFC configuration (subtype 0x0B), ETS configuration (0x09) and
// recommendation (0x0A), application priority (0x0C); the IEEE 802.3 ones (OUI 00-12-0F) MAC/PHY
// configuration/status (subtype 1) and maximum frame size (subtype 4).
//
// Validity (802.1AB 9.2.7.7): the first three TLVs are chassis ID, port ID and TTL, in that order,
// each once, with lengths in their ranges; every TLV lies inside the frame. A frame that breaks
// one of these is invalid (an error Status). An optional TLV whose content has the wrong length,
// or that is unknown, is skipped and counted (`skipped_tlvs`); the rest of the frame still counts.
// Every string is made valid UTF-8 with control characters replaced by U+FFFD, so it can become a
// label, a JSON value or a line on a terminal; its length is bounded by the TLV's (at most 255
// bytes of input, at most 3 x 255 bytes out).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

inline constexpr uint16_t kLldpEthertype = 0x88cc;
// UDP port of RoCE v2 (IANA), as an application priority TLV names it.
inline constexpr uint16_t kRoceV2UdpPort = 4791;

// A chassis or port ID: the subtype as sent and its value as text. MAC addresses are written
// "aa:bb:cc:dd:ee:ff", network addresses as IPv4/IPv6 text (another family as "family N: hex"),
// everything else (names, aliases, components, locally assigned) as sanitized text.
struct LldpId {
  uint8_t subtype = 0;
  std::string value;
  bool operator==(const LldpId&) const = default;
};

// Chassis ID subtypes (802.1AB Table 8-2).
enum LldpChassisIdSubtype : uint8_t {
  kChassisComponent = 1,
  kChassisInterfaceAlias = 2,
  kChassisPortComponent = 3,
  kChassisMacAddress = 4,
  kChassisNetworkAddress = 5,
  kChassisInterfaceName = 6,
  kChassisLocallyAssigned = 7,
};
// Port ID subtypes (802.1AB Table 8-3).
enum LldpPortIdSubtype : uint8_t {
  kPortInterfaceAlias = 1,
  kPortComponent = 2,
  kPortMacAddress = 3,
  kPortNetworkAddress = 4,
  kPortInterfaceName = 5,
  kPortAgentCircuitId = 6,
  kPortLocallyAssigned = 7,
};

// System capabilities bits (802.1AB Table 8-4), in `supported` and `enabled`.
enum LldpCapability : uint16_t {
  kCapabilityOther = 1 << 0,
  kCapabilityRepeater = 1 << 1,
  kCapabilityBridge = 1 << 2,
  kCapabilityWlanAccessPoint = 1 << 3,
  kCapabilityRouter = 1 << 4,
  kCapabilityTelephone = 1 << 5,
  kCapabilityDocsis = 1 << 6,
  kCapabilityStationOnly = 1 << 7,
  kCapabilityCVlan = 1 << 8,
  kCapabilitySVlan = 1 << 9,
  kCapabilityTwoPortMacRelay = 1 << 10,
};

struct LldpCapabilities {
  uint16_t supported = 0;
  uint16_t enabled = 0;
  bool operator==(const LldpCapabilities&) const = default;
};

struct LldpManagementAddress {
  uint8_t family = 0;               // IANA address family: 1 IPv4, 2 IPv6, 6 802 (MAC)
  std::string address;              // as text, like an ID of the network-address subtype
  uint8_t interface_numbering = 0;  // 1 unknown, 2 ifIndex, 3 system port number
  uint32_t interface_number = 0;
  bool operator==(const LldpManagementAddress&) const = default;
};

// 802.1Qaz PFC configuration (802.1Q-2018 D.2.11).
struct LldpPfc {
  bool willing = false;
  bool mbc = false;        // MACsec bypass capability
  uint8_t capability = 0;  // how many traffic classes may be PFC-enabled at once (0-15)
  uint8_t enabled = 0;     // bit n set: PFC enabled on priority n
  bool operator==(const LldpPfc&) const = default;
};

// 802.1Qaz ETS configuration or recommendation (802.1Q-2018 D.2.9, D.2.10).
struct LldpEts {
  bool willing = false;                  // configuration only
  bool cbs = false;                      // credit-based shaper supported (configuration only)
  uint8_t max_tcs = 0;                   // configuration only; 0 means 8
  std::array<uint8_t, 8> priority_tc{};  // traffic class of priority 0..7
  std::array<uint8_t, 8> tc_bandwidth_percent{};
  std::array<uint8_t, 8> tc_algorithm{};  // 0 strict, 1 CBS, 2 ETS, 255 vendor
  bool operator==(const LldpEts&) const = default;
};

// One entry of the 802.1Qaz application priority table (802.1Q-2018 D.2.12).
struct LldpAppPriority {
  uint8_t priority = 0;
  uint8_t selector = 0;  // 1 ethertype, 2 TCP/SCTP port, 3 UDP/DCCP port, 4 any of them, 5 DSCP
  uint16_t protocol = 0;
  bool operator==(const LldpAppPriority&) const = default;
};

// 802.3 MAC/PHY configuration/status (802.3-2018 79.3.1).
struct LldpMacPhy {
  bool autoneg_supported = false;
  bool autoneg_enabled = false;
  uint16_t advertised_capabilities = 0;
  uint16_t operational_mau_type = 0;
  bool operator==(const LldpMacPhy&) const = default;
};

struct LldpFrame {
  std::string source_mac;  // of the Ethernet header, "aa:bb:cc:dd:ee:ff"
  LldpId chassis_id;
  LldpId port_id;
  uint16_t ttl_seconds = 0;  // 0: the sender is shutting down; forget it now
  std::optional<std::string> port_description;
  std::optional<std::string> system_name;
  std::optional<std::string> system_description;
  std::optional<LldpCapabilities> capabilities;
  std::vector<LldpManagementAddress> management_addresses;  // at most kMaxManagementAddresses
  std::optional<LldpPfc> pfc;
  std::optional<LldpEts> ets_configuration;
  std::optional<LldpEts> ets_recommendation;
  std::vector<LldpAppPriority> app_priorities;
  std::optional<LldpMacPhy> mac_phy;
  std::optional<uint16_t> max_frame_size;
  int skipped_tlvs = 0;  // unknown, repeated or malformed optional TLVs
  bool operator==(const LldpFrame&) const = default;

  // The priority the application priority table gives RoCE v2 (UDP port 4791, selector 3 or 4);
  // where several entries name it, the highest priority (802.1Q-2018 D.2.12 says the highest
  // wins). nullopt when the switch does not say.
  std::optional<uint8_t> RoceV2Priority() const;
  // True when the sender says it is a bridge or a router (supported capabilities; the enabled
  // ones narrow it further but many switches leave them at 0).
  bool IsSwitch() const;
};

inline constexpr size_t kMaxManagementAddresses = 4;

// Decodes an Ethernet frame carrying an LLDPDU: destination and source MAC, an optional 802.1Q
// tag, ethertype 0x88cc, then the LLDPDU. InvalidArgument, naming the first problem, when the
// frame is not a valid LLDP frame.
StatusOr<LldpFrame> ParseLldpFrame(std::span<const uint8_t> frame);
// Decodes the LLDPDU alone (what follows the ethertype); source_mac is left empty.
StatusOr<LldpFrame> ParseLldpdu(std::span<const uint8_t> lldpdu);

// "aa:bb:cc:dd:ee:ff" of 6 bytes; other lengths as colon-separated hex too.
std::string FormatMac(std::span<const uint8_t> bytes);

}  // namespace rocewatch
