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
#include <optional>
#include <string>
#include <tuple>

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

class EthtoolNetlinkSource {
 public:
  virtual ~EthtoolNetlinkSource() = default;
  virtual StatusOr<std::optional<FecReading>> ReadFec(const std::string& netdev) = 0;
  virtual StatusOr<std::optional<LinkStateReading>> ReadLinkState(const std::string& netdev) = 0;
  virtual StatusOr<std::optional<PauseReading>> ReadPause(const std::string& netdev) = 0;
  virtual StatusOr<std::optional<StandardStatistics>> ReadStandardStatistics(
      const std::string& netdev) = 0;
  // The bytes of one module EEPROM page. nullopt: no module access (EOPNOTSUPP) or, also as a
  // state, no module plugged in. Errors: IoError while a module answers badly (e.g. mid-flap).
  virtual StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                              const ModulePageAddress& address) = 0;
};

}  // namespace rocewatch
