// A pluggable module's EEPROM pages as DecodeModule reads them: from the kernel (a module's own
// bytes, which a faulty or counterfeit module fills with anything) or from a bundle's recording
// (rocewatch/ethtool/<netdev>/module/). The input is the lower page followed by the pages that
// page asks for (UpperPagesFor), each cut where the input ends. Whatever decodes is a reading the
// detectors can take: finite numbers, at most eight lanes numbered from 1.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ethtool/module_eeprom.h"
#include "fuzz/fuzz_check.h"

using namespace rocewatch;

namespace {

void CheckFinite(const std::optional<double>& value) {
  if (value) FUZZ_CHECK(std::isfinite(*value));
}

void CheckFinite(const std::optional<ModuleThresholds>& thresholds) {
  if (!thresholds) return;
  FUZZ_CHECK(std::isfinite(thresholds->high_alarm) && std::isfinite(thresholds->low_alarm));
  FUZZ_CHECK(std::isfinite(thresholds->high_warning) && std::isfinite(thresholds->low_warning));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(fuzz::AsText(data, size));
  ModulePages pages;
  const ModulePageAddress lower = LowerPageAddress();
  size_t at = std::min<size_t>(input.size(), lower.length);
  pages[lower] = input.substr(0, at);
  for (const ModulePageAddress& address : UpperPagesFor(pages[lower])) {
    if (at >= input.size()) break;
    pages[address] = input.substr(at, address.length);
    at += address.length;
  }
  StatusOr<ModuleReading> reading = DecodeModule(pages);
  if (!reading.ok()) return 0;
  CheckFinite(reading->temperature_celsius);
  CheckFinite(reading->supply_volts);
  FUZZ_CHECK(reading->lanes.size() <= 8);
  for (const ModuleLane& lane : reading->lanes) {
    FUZZ_CHECK(lane.lane >= 1 && lane.lane <= 8);
    CheckFinite(lane.rx_power_watts);
    CheckFinite(lane.tx_power_watts);
    CheckFinite(lane.tx_bias_amperes);
  }
  CheckFinite(reading->temperature_thresholds);
  CheckFinite(reading->voltage_thresholds);
  CheckFinite(reading->rx_power_thresholds);
  CheckFinite(reading->tx_power_thresholds);
  CheckFinite(reading->tx_bias_thresholds);
  return 0;
}
