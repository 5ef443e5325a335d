#pragma once
// The NCCL settings a running process was started with, from its /proc/<pid>/environ. Pure
// parsers: bytes in, values out.
//
// Semantics follow NCCL (src/transport/net_ib*, src/misc/param.cc): an unparsable number is
// ignored by NCCL (it warns and keeps its default), so it is kept here as raw text with no value.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

// Variables of a NUL-separated environment block (as /proc/<pid>/environ holds it) whose names
// start with `prefix`. Entries without '=' or with an empty name are skipped; the first
// definition of a name wins (as getenv sees it); a final entry without its NUL (a truncated read)
// is kept only if it has a '='. Values may hold any bytes except NUL.
std::map<std::string, std::string> ParseEnvironBlock(std::string_view block,
                                                     std::string_view prefix);

// One entry of NCCL_IB_HCA: a device name (or name prefix) and an optional port.
struct NcclHcaEntry {
  std::string device;
  std::optional<int> port;
  bool operator==(const NcclHcaEntry&) const = default;
};

// NCCL_IB_HCA: [^][=]dev[:port][,dev[:port]...]. '^' excludes the listed devices, '=' makes names
// exact (otherwise they are prefixes: "mlx5" selects mlx5_0, mlx5_1, ...).
struct NcclHcaSpec {
  bool exclude = false;
  bool exact = false;
  std::vector<NcclHcaEntry> entries;

  // Whether NCCL would use this device port under the spec. An empty spec selects everything.
  bool Selects(std::string_view device, int port) const;
  // Whether `entry` names `device` (exactly, or as a prefix unless exact).
  bool Names(const NcclHcaEntry& entry, std::string_view device) const;
};
NcclHcaSpec ParseNcclIbHca(std::string_view text);

enum class NcclAddressFamily { kIpv4, kIpv6 };

// The variables diagnose checks, raw and interpreted.
struct NcclSettings {
  std::map<std::string, std::string> raw;  // every NCCL_* variable found, by name

  std::optional<long long> gid_index;  // NCCL_IB_GID_INDEX (-1 = auto)
  // NCCL_IB_GID_INDEX= set to the empty string: NCCL takes an empty value as unset (its
  // ncclLoadParam parses only a non-empty one) and uses its version's default, which is index 0
  // (the link-local GID) before 2.21.5. Not in `invalid`; gid_index stays nullopt.
  bool gid_index_empty = false;
  NcclAddressFamily address_family = NcclAddressFamily::kIpv4;  // NCCL_IB_ADDR_FAMILY
  std::optional<NcclHcaSpec> hca;                               // NCCL_IB_HCA
  std::optional<long long> timeout;                             // NCCL_IB_TIMEOUT (0..31)
  std::optional<long long> retry_count;                         // NCCL_IB_RETRY_CNT (0..7)
  long long roce_version = 2;                                   // NCCL_IB_ROCE_VERSION_NUM (1 or 2)
  // Variables whose value NCCL would reject (not a number, out of range): "NCCL_IB_TIMEOUT=abc".
  std::vector<std::string> invalid;
};

// Interprets the NCCL_* variables of one process.
NcclSettings InterpretNcclSettings(std::map<std::string, std::string> variables);

}  // namespace rocewatch
