#pragma once
// Decoding of a pluggable module's diagnostic pages, as ETHTOOL_MSG_MODULE_EEPROM_GET returns
// them (docs/detection.md, "Optics"):
//   - SFF-8636 (QSFP+, QSFP28, QSFP56): monitors in the lower page (temperature bytes 22-23,
//     supply voltage 26-27, per-lane rx power 34-41, tx bias 42-49, tx power 50-57), the module's
//     alarm and warning thresholds in upper page 03h (temperature 128, voltage 144, rx power 176,
//     tx bias 184, tx power 192), unless the module has flat memory (byte 2 bit 2);
//   - CMIS (QSFP-DD, OSFP, QSFP112): temperature and voltage in the lower page (bytes 14-17),
//     supported monitors and the tx bias multiplier in page 01h (byte 160), thresholds in page 02h
//     (temperature 128, voltage 136, tx power 176, tx bias 184, rx power 192), lane monitors and
//     data path states in page 11h (states 128-131, tx power 154, tx bias 170, rx power 186).
//   - SFF-8472 (SFP, SFP+, SFP28: identifier 02h/03h at A0h byte 0): one lane. A0h byte 92 says
//     whether the module implements digital diagnostics (bit 6) and whether they are externally
//     calibrated (bit 4); the diagnostics are at I2C address A2h: thresholds at bytes 0-39
//     (temperature 0, voltage 8, tx bias 16, tx power 24, rx power 32), external calibration
//     constants at 56-91 (rx power polynomial as IEEE-754 floats 56-75, then slope/offset pairs
//     for tx bias 76, tx power 80, temperature 84, voltage 88), monitors at 96-105 (temperature,
//     voltage, tx bias, tx power, rx power) and the tx disable state at byte 110 (bits 7-6).
//     Externally calibrated values and thresholds are converted as SFF-8472 section 9.3 says.
// Units on the wire: temperature signed 1/256 degC, voltage 100 uV, optical power 0.1 uW, bias
// 2 uA, each a big-endian 16-bit word. Pure functions over bytes.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "ethtool/ethtool_sources.h"

namespace rocewatch {

enum class ModuleStandard { kSff8636, kCmis, kSff8472 };
const char* ModuleStandardLabel(ModuleStandard standard);  // "SFF-8636" | "CMIS" | "SFF-8472"

// A module's own thresholds for one quantity. Absent when the module does not implement them
// (all zero or inconsistent, as on modules without thresholds).
struct ModuleThresholds {
  double high_alarm = 0;
  double low_alarm = 0;
  double high_warning = 0;
  double low_warning = 0;
  bool operator==(const ModuleThresholds&) const = default;
};

struct ModuleLane {
  int lane = 1;  // 1-based, as the specifications number them
  // False for a lane the module says is not in use (CMIS data path deactivated, SFF-8636 tx
  // disabled): it is not expected to carry light.
  bool active = true;
  std::optional<double> rx_power_watts;
  std::optional<double> tx_power_watts;
  std::optional<double> tx_bias_amperes;
  bool operator==(const ModuleLane&) const = default;
};

struct ModuleReading {
  ModuleStandard standard = ModuleStandard::kSff8636;
  uint8_t identifier = 0;  // SFF-8024 identifier (byte 0)
  std::optional<double> temperature_celsius;
  std::optional<double> supply_volts;
  std::vector<ModuleLane> lanes;
  std::optional<ModuleThresholds> temperature_thresholds;
  std::optional<ModuleThresholds> voltage_thresholds;
  std::optional<ModuleThresholds> rx_power_thresholds;
  std::optional<ModuleThresholds> tx_power_thresholds;
  std::optional<ModuleThresholds> tx_bias_thresholds;
  bool operator==(const ModuleReading&) const = default;
};

// The half pages of a module, by address.
using ModulePages = std::map<ModulePageAddress, std::string>;

// The lower page's address (read it first).
ModulePageAddress LowerPageAddress();
// The pages to read after the lower page, for the standard its identifier names: upper pages
// (SFF-8636, CMIS), the A2h diagnostics (SFF-8472, when byte 92 says they exist). Empty for flat
// memory, a module without diagnostics, and a module this decoder does not know.
std::vector<ModulePageAddress> UpperPagesFor(const std::string& lower_page);

// Decodes what was read. Upper pages may be missing (their values stay absent).
// Errors: InvalidArgument for a lower page that is missing, short, or of an identifier that is
// neither SFF-8636, CMIS nor SFF-8472 (docs/detection.md lists them).
StatusOr<ModuleReading> DecodeModule(const ModulePages& pages);

}  // namespace rocewatch
