#include "ethtool/ioctl_driver_statistics_source.h"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

namespace rocewatch {
namespace {

// A driver may report more statistics than any real NIC has; beyond this we refuse rather than
// allocate without bound (mlx5 with many channels reports a few thousand).
constexpr uint32_t kMaxStatistics = 1 << 16;

Status ErrorFor(int error, const std::string& netdev, const char* what) {
  if (error == ENODEV) return Status::NotFound(netdev + ": no such netdev");
  return Status::FromErrno(error, std::string(what) + " " + netdev);
}

}  // namespace

IoctlDriverStatisticsSource::~IoctlDriverStatisticsSource() {
  if (fd_ >= 0) close(fd_);
}

Status IoctlDriverStatisticsSource::Open() {
  if (fd_ >= 0) return Status::Ok();
  fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return Status::FromErrno(errno, "socket for the ethtool ioctl");
  return Status::Ok();
}

int IoctlDriverStatisticsSource::Ethtool(const std::string& netdev, void* request) const {
  ifreq ifr;
  std::memset(&ifr, 0, sizeof(ifr));
  if (netdev.empty() || netdev.size() >= IFNAMSIZ) return ENODEV;
  std::memcpy(ifr.ifr_name, netdev.data(), netdev.size());
  ifr.ifr_data = static_cast<char*>(request);
  return ioctl(fd_, SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
}

StatusOr<std::optional<DriverStatistics>> IoctlDriverStatisticsSource::ReadDriverStatistics(
    const std::string& netdev) {
  if (fd_ < 0) return Status::Unavailable("ethtool ioctl socket not open");

  // ETHTOOL_GSSET_INFO answers with one u32 after the header for the one set asked for.
  alignas(8) uint8_t info_buffer[sizeof(ethtool_sset_info) + sizeof(uint32_t)] = {};
  auto* info = reinterpret_cast<ethtool_sset_info*>(info_buffer);
  info->cmd = ETHTOOL_GSSET_INFO;
  info->sset_mask = 1ULL << ETH_SS_STATS;
  if (int error = Ethtool(netdev, info); error != 0) {
    if (error == EOPNOTSUPP) return std::optional<DriverStatistics>();
    return ErrorFor(error, netdev, "ETHTOOL_GSSET_INFO");
  }
  if (!(info->sset_mask & (1ULL << ETH_SS_STATS)) || info->data[0] == 0)
    return std::optional<DriverStatistics>();
  const uint32_t count = info->data[0];
  if (count > kMaxStatistics)
    return Status::IoError(netdev + ": driver reports " + std::to_string(count) + " statistics");

  std::vector<std::string>& names = names_[netdev];
  if (names.size() != count) {
    std::unique_ptr<uint8_t[]> buffer(
        new uint8_t[sizeof(ethtool_gstrings) + size_t{count} * ETH_GSTRING_LEN]());
    auto* strings = reinterpret_cast<ethtool_gstrings*>(buffer.get());
    strings->cmd = ETHTOOL_GSTRINGS;
    strings->string_set = ETH_SS_STATS;
    strings->len = count;
    if (int error = Ethtool(netdev, strings); error != 0) {
      names_.erase(netdev);
      return ErrorFor(error, netdev, "ETHTOOL_GSTRINGS");
    }
    names.clear();
    const uint32_t answered = std::min(strings->len, count);
    for (uint32_t i = 0; i < answered; ++i) {
      const char* name = reinterpret_cast<const char*>(strings->data) + size_t{i} * ETH_GSTRING_LEN;
      names.emplace_back(name, strnlen(name, ETH_GSTRING_LEN));
    }
  }

  std::unique_ptr<uint8_t[]> buffer(new uint8_t[sizeof(ethtool_stats) + size_t{count} * 8]());
  auto* stats = reinterpret_cast<ethtool_stats*>(buffer.get());
  stats->cmd = ETHTOOL_GSTATS;
  stats->n_stats = count;
  if (int error = Ethtool(netdev, stats); error != 0)
    return ErrorFor(error, netdev, "ETHTOOL_GSTATS");
  // The driver's count may have changed between the calls: trust the smaller one, and read the
  // names again next time.
  const size_t answered = std::min<size_t>({stats->n_stats, count, names.size()});
  DriverStatistics result;
  result.counters.reserve(answered);
  for (size_t i = 0; i < answered; ++i) {
    uint64_t value;
    std::memcpy(&value, reinterpret_cast<const uint8_t*>(stats->data) + i * 8, 8);
    result.counters.emplace_back(names[i], value);
  }
  if (answered != names.size()) names_.erase(netdev);  // invalidates `names`
  return std::optional<DriverStatistics>(std::move(result));
}

}  // namespace rocewatch
