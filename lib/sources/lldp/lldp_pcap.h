#pragma once
// LLDP frames in pcap files, tcpdump's format (docs/bundle.md): what `collect` records of each
// rail (<bundle>/rocewatch/lldp/<netdev>.pcap) and what `run` and `diagnose --host-root` read in
// place of the live socket, so that `tcpdump -i IF -c 1 -w F ether proto 0x88cc` on any host makes
// a valid recording. Pure: bytes in, frames or bytes out. A file comes from a bundle, so it is
// untrusted: every length is checked against the file and the bounds below.
//
// Read: the classic pcap format in either byte order, microsecond (a1b2c3d4) or nanosecond
// (a1b23c4d) timestamps, link type 1 (Ethernet). Records that are not untagged LLDP (ethertype
// 0x88cc at offset 12) are skipped; a record cut by the snapshot length is kept as captured.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace rocewatch {

inline constexpr size_t kMaxLldpPcapBytes = 1 << 20;
inline constexpr size_t kMaxLldpPcapRecords = 4096;

// The LLDP frames of a pcap file, in file order, each at most kLldpMaxFrameBytes (longer ones are
// cut, as the live socket cuts them). Corrupt "pcap: ..." for a file that is not pcap, has
// another link type, or ends inside a header or record.
StatusOr<std::vector<std::vector<uint8_t>>> ReadLldpPcap(std::string_view bytes);

// A pcap file (microsecond timestamps, host byte order as tcpdump writes it, link type 1) of one
// frame captured at `unix_seconds`.
std::string WriteLldpPcap(const std::vector<uint8_t>& frame, double unix_seconds);

}  // namespace rocewatch
