#pragma once
// The two ways the kernel tells us about a netdev's link, each behind a small interface so that
// tests and recordings can stand behind them:
//   - DriverStatisticsSource: the driver's own statistics (ETHTOOL_GSTRINGS/GSTATS ioctl, the
//     data of `ethtool -S`); the only place for mlx5's *_phy and per-priority PFC counters.
//   - EthtoolNetlinkSource: the generic netlink family "ethtool" (FEC, link state, pause,
//     standard statistics, module EEPROM pages).
// Every read answers for one netdev of the source's network namespace and needs no privilege.
//
// Contract of every Read*: a value; std::nullopt when the driver does not implement the request
// (EOPNOTSUPP): a state, not an error; or an error: NotFound for a netdev that does not exist
// (ENODEV), Unavailable when the interface itself is missing (no ethtool netlink family), IoError
// otherwise.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

#include "core/status.h"
#include "ethtool/ethtool_readings.h"

namespace rocewatch {

class DriverStatisticsSource {
 public:
  virtual ~DriverStatisticsSource() = default;
  virtual StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(
      const std::string& netdev) = 0;
};

// A 128-byte half page of a module's EEPROM as ETHTOOL_MSG_MODULE_EEPROM_GET addresses it:
// offset 0 is the lower page (always page 0), offset 128 the upper half of `page` in `bank`, at
// I2C address 0x50 (SFF-8636, CMIS; an SFP's serial ID, A0h) or 0x51 (an SFP's diagnostics, A2h,
// SFF-8472).
struct ModulePageAddress {
  uint8_t page = 0;
  uint8_t bank = 0;
  uint32_t offset = 0;  // 0 or 128
  uint32_t length = 128;
  uint8_t i2c_address = kModuleI2cAddress;
  static constexpr uint8_t kModuleI2cAddress = 0x50;
  static constexpr uint8_t kSfpDiagnosticsI2cAddress = 0x51;
  bool operator<(const ModulePageAddress& o) const {
    return std::tie(i2c_address, page, bank, offset, length) <
           std::tie(o.i2c_address, o.page, o.bank, o.offset, o.length);
  }
  bool operator==(const ModulePageAddress&) const = default;
};

// The requests of the ethtool netlink family that answer with a reading (module pages aside),
// and their answers: the alternative of EthtoolAnswer that belongs to the request.
enum class EthtoolRequest { kFec, kLinkState, kPause, kStandardStatistics };
using EthtoolAnswer = std::variant<FecReading, LinkStateReading, PauseReading, StandardStatistics>;

// A typed answer as an EthtoolAnswer (for implementations).
template <typename T>
StatusOr<std::optional<EthtoolAnswer>> AnswerOf(StatusOr<std::optional<T>> reading) {
  if (!reading.ok()) return reading.status();
  if (!*reading) return std::optional<EthtoolAnswer>();
  return std::optional<EthtoolAnswer>(std::move(**reading));
}

// Implementations answer two calls (a request, a module page); callers use the typed reads.
class EthtoolNetlinkSource {
 public:
  virtual ~EthtoolNetlinkSource() = default;
  // FEC_GET, LINKSTATE_GET, PAUSE_GET or STATS_GET for `netdev` (contract above). The answer holds
  // the request's own alternative.
  virtual StatusOr<std::optional<EthtoolAnswer>> Read(const std::string& netdev,
                                                      EthtoolRequest request) = 0;
  // The bytes of one module EEPROM page. nullopt: no module access (EOPNOTSUPP) or, also as a
  // state, no module plugged in. Errors: IoError while a module answers badly (e.g. mid-flap).
  virtual StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                              const ModulePageAddress& address) = 0;

  StatusOr<std::optional<FecReading>> ReadFec(const std::string& netdev) {
    return As<FecReading>(Read(netdev, EthtoolRequest::kFec));
  }
  StatusOr<std::optional<LinkStateReading>> ReadLinkState(const std::string& netdev) {
    return As<LinkStateReading>(Read(netdev, EthtoolRequest::kLinkState));
  }
  StatusOr<std::optional<PauseReading>> ReadPause(const std::string& netdev) {
    return As<PauseReading>(Read(netdev, EthtoolRequest::kPause));
  }
  StatusOr<std::optional<StandardStatistics>> ReadStandardStatistics(const std::string& netdev) {
    return As<StandardStatistics>(Read(netdev, EthtoolRequest::kStandardStatistics));
  }

 private:
  template <typename T>
  static StatusOr<std::optional<T>> As(StatusOr<std::optional<EthtoolAnswer>> answer) {
    if (!answer.ok()) return answer.status();
    if (!*answer) return std::optional<T>();
    if (T* reading = std::get_if<T>(&**answer)) return std::optional<T>(std::move(*reading));
    return Status::Internal("an ethtool source answered another request");
  }
};

// The kernel's ethtool interfaces, opened. A null member could not be opened (why: *_error);
// recordings under the host root still answer.
struct EthtoolSources {
  std::unique_ptr<DriverStatisticsSource> statistics;
  std::unique_ptr<EthtoolNetlinkSource> netlink;
  std::string statistics_error;
  std::string netlink_error;
};

}  // namespace rocewatch
