#pragma once
// Parsing of one rtnetlink message (link, address, rule, route) into a NetlinkMessage. Pure: bytes
// in, values out; the input is outside input (the kernel, or a fuzzer) and is fully bounds-checked.

#include <cstddef>
#include <optional>

#include "core/clock.h"
#include "core/status.h"
#include "netlink/netlink_event.h"

namespace rocewatch {

// Parses the message at the start of `data` (an nlmsghdr and its payload; `size` bytes readable).
// Returns nullopt for message types and families that are not watched (RTM_NEWNEIGH, multicast
// routes, ...). Errors: InvalidArgument for a truncated header, a length that overruns `size` or
// a malformed attribute of a watched type. Unknown attribute values (operstate) pass through.
StatusOr<std::optional<NetlinkMessage>> ParseRtnetlinkMessage(const void* data, size_t size,
                                                              MonoTime at);

// IF_OPER_* as iproute2 prints it ("UP", "LOWERLAYERDOWN"); unknown values as their number.
std::string OperstateName(unsigned value);

}  // namespace rocewatch
