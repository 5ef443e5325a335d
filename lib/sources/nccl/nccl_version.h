#pragma once
// NCCL's version and the defaults that depend on it. Pure.
//
// Defaults, from NCCL's sources (src/transport/net_ib*):
//   NCCL_IB_TIMEOUT    14 before 2.14, 18 from 2.14 through 2.22, 20 from 2.23
//   NCCL_IB_RETRY_CNT  7
//   NCCL_IB_GID_INDEX  0 before 2.21.5 (every QP uses GID 0), -1 (auto, per connection) from 2.21.5

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch {

struct NcclVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  std::string ToString() const;  // "2.21.5"
  auto operator<=>(const NcclVersion&) const = default;
};

// "2.21.5" (also "2.21.5-1", "2.21.5+cuda12.2": the suffix is ignored); nullopt for anything else.
std::optional<NcclVersion> ParseNcclVersion(std::string_view text);

long long NcclDefaultIbTimeout(const NcclVersion& version);
inline constexpr long long kNcclDefaultIbRetryCount = 7;
long long NcclDefaultGidIndex(const NcclVersion& version);

}  // namespace rocewatch
