#pragma once
// Pure parsers of sysfs attribute text (/sys/class/infiniband/..., /sys/class/net/...). No I/O:
// the caller reads the file and hands the content in. Every parser accepts arbitrary bytes (empty,
// truncated, binary, oversized) and reports bad input as a Status, never crashes. A single trailing
// newline (as the kernel prints) and surrounding blanks are accepted.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "model/gid.h"

namespace rocewatch {

// ports/<p>/state ("4: ACTIVE") and phys_state ("5: LinkUp"): the kernel's number and name.
struct SysfsPortState {
  uint32_t code = 0;
  std::string name;  // passed through as printed ("ACTIVE", "LinkUp", "Phy Test", "<unknown>")
  bool operator==(const SysfsPortState&) const = default;
};

// "<decimal>: <name>". Errors: InvalidArgument (no number, no colon, empty name, control bytes).
StatusOr<SysfsPortState> ParsePortState(std::string_view text);

// A counter file: one decimal uint64. Errors: InvalidArgument for "N/A (no PMA)", signs, garbage,
// empty text and values above 2^64-1.
StatusOr<uint64_t> ParseCounterValue(std::string_view text);

// gids/<i>: exactly 8 groups of 4 hex digits separated by ':' (39 characters), returned in
// lowercase. Compressed IPv6 forms and anything else are InvalidArgument.
StatusOr<std::string> ParseGid(std::string_view text);

// gid_attrs/types/<i>: "IB/RoCE v1" -> kRoceV1, "RoCE v2" -> kRoceV2, "IB" -> kIb, any other text
// -> kUnknown (passed through, not an error). Note: the kernel prints "IB/RoCE v1" for IB ports too
// (IB_GID_TYPE_IB == IB_GID_TYPE_ROCE); callers that know the link layer map it to kIb there.
GidType ParseGidType(std::string_view text);

// gid_attrs/ndevs/<i>, device/net/ entries: an interface name. Trimmed; errors (InvalidArgument):
// empty, 16 bytes or longer (IFNAMSIZ), containing '/', blanks or control bytes.
StatusOr<std::string> ParseNetdevName(std::string_view text);

// Plain attributes (fw_ver, hca_type, node_guid, rate, link_layer, operstate, address): the text
// with surrounding blanks and newlines removed. Never fails; control bytes are kept as read.
std::string ParsePlainText(std::string_view text);

// A directory entry that is a decimal number (a port "1", a GID slot "3"), or nullopt.
std::optional<uint32_t> ParseEntryNumber(std::string_view name);

// A port state as its name ("4: ACTIVE" -> "ACTIVE"); text of an unknown format passes through.
std::string PortStateName(std::string_view text);

// hw_counters/ files that are settings, not counters (lifespan: the driver's cache time in ms).
bool IsHwCounterSetting(std::string_view name);

}  // namespace rocewatch
