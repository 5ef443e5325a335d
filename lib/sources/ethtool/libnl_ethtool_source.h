#pragma once
// EthtoolNetlinkSource over the generic netlink family "ethtool" (linux/ethtool_netlink.h) with
// libnl-genl-3: one request and one reply per read, on a blocking socket of the network namespace
// the source was opened in (the kernel answers GET requests synchronously). Requests carry
// ETHTOOL_FLAG_STATS where the kernel accepts it (FEC, pause, link state), so that their replies
// include their counters. A kernel older than a request's statistics (Linux 6.1 takes no
// ETHTOOL_FLAG_STATS on LINKSTATE_GET) answers EINVAL to the flag: the request is sent again
// without it, and without it from then on. Those counters are then not available, which is not a
// failed read.
//
// Threading: one thread at a time.

#include <bitset>
#include <cstdint>
#include <functional>
#include <string>

#include "ethtool/ethtool_sources.h"

struct nl_sock;
struct nl_msg;
struct nlmsghdr;

namespace rocewatch {

class LibnlEthtoolSource final : public EthtoolNetlinkSource {
 public:
  LibnlEthtoolSource() = default;
  ~LibnlEthtoolSource() override;
  LibnlEthtoolSource(const LibnlEthtoolSource&) = delete;
  LibnlEthtoolSource& operator=(const LibnlEthtoolSource&) = delete;

  // Connects and resolves the family in the calling thread's network namespace. Errors:
  // Unavailable when the kernel has no ethtool netlink (CONFIG_ETHTOOL_NETLINK off), IoError else.
  Status Open();

  StatusOr<std::optional<EthtoolAnswer>> Read(const std::string& netdev,
                                              EthtoolRequest request) override;
  StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                      const ModulePageAddress& address) override;

  // Requests sent since Open (for benchmarks and tests).
  uint64_t requests() const { return requests_; }

 private:
  StatusOr<std::optional<FecReading>> Fec(const std::string& netdev);
  StatusOr<std::optional<LinkStateReading>> LinkState(const std::string& netdev);
  StatusOr<std::optional<PauseReading>> Pause(const std::string& netdev);
  StatusOr<std::optional<StandardStatistics>> Standard(const std::string& netdev);

  // Sends `command` for `netdev` (header attribute `header_attr`, with ETHTOOL_FLAG_STATS if
  // `with_stats`: only FEC, PAUSE and LINKSTATE accept it, others answer EINVAL, and so does a
  // kernel that predates the request's statistics: then once more without the flag; plus what
  // `add` puts) and hands the reply to `on_reply`. Returns false for EOPNOTSUPP, true after a
  // reply.
  StatusOr<bool> Request(uint8_t command, int header_attr, bool with_stats,
                         const std::string& netdev, const std::function<int(nl_msg*)>& add,
                         const std::function<void(nlmsghdr*)>& on_reply);

  nl_sock* sock_ = nullptr;
  int family_ = -1;
  std::bitset<256> stats_refused_;  // commands this kernel refused ETHTOOL_FLAG_STATS on
  uint64_t requests_ = 0;
};

}  // namespace rocewatch
