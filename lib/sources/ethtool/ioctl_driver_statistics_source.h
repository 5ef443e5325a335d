#pragma once
// DriverStatisticsSource through the SIOCETHTOOL ioctl on a datagram socket of the network
// namespace the source was opened in: ETHTOOL_GSSET_INFO (how many statistics), ETHTOOL_GSTRINGS
// (their names, cached per netdev until the count changes) and ETHTOOL_GSTATS (the values). A
// steady-state read costs two ioctls. None of them needs a capability.
//
// Threading: one thread at a time.

#include <map>
#include <string>
#include <vector>

#include "ethtool/ethtool_sources.h"

namespace rocewatch {

class IoctlDriverStatisticsSource final : public DriverStatisticsSource {
 public:
  IoctlDriverStatisticsSource() = default;
  ~IoctlDriverStatisticsSource() override;
  IoctlDriverStatisticsSource(const IoctlDriverStatisticsSource&) = delete;
  IoctlDriverStatisticsSource& operator=(const IoctlDriverStatisticsSource&) = delete;

  // Opens the socket in the calling thread's network namespace. Errors: the socket() errno.
  Status Open();

  StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(
      const std::string& netdev) override;

 private:
  // The ETHTOOL_SIOCETHTOOL call; 0 or the errno.
  int Ethtool(const std::string& netdev, void* request) const;

  int fd_ = -1;
  std::map<std::string, std::vector<std::string>> names_;  // per netdev, from ETHTOOL_GSTRINGS
};

}  // namespace rocewatch
