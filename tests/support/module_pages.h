#pragma once
// Byte-exact module EEPROM pages built from the specifications' layouts (SFF-8636 rev 2.10a,
// CMIS 5.x), for decoder tests and recorded optics: the encoder side of ethtool/module_eeprom.h,
// written independently from the offsets of the specifications' tables.

#include <string>
#include <vector>

#include "ethtool/module_eeprom.h"

namespace rocewatch {

struct ModuleValues {
  double temperature_celsius = 40.5;
  double supply_volts = 3.3;
  std::vector<double> rx_power_watts;  // one per lane (4 for SFF-8636, 8 for CMIS)
  std::vector<double> tx_power_watts;
  std::vector<double> tx_bias_amperes;
  std::vector<bool> lane_active;  // empty: all active
  bool thresholds = true;         // write the threshold page
  bool flat_memory = false;
  // Thresholds: high alarm, low alarm, high warning, low warning.
  ModuleThresholds temperature{75, -5, 70, 0};
  ModuleThresholds voltage{3.63, 2.97, 3.46, 3.13};
  ModuleThresholds rx_power{3.5e-3, 0.04e-3, 2.2e-3, 0.1e-3};
  ModuleThresholds tx_power{3.5e-3, 0.1e-3, 2.2e-3, 0.2e-3};
  ModuleThresholds tx_bias{15e-3, 2e-3, 13e-3, 3e-3};
};

// A QSFP28 (identifier 0x11): the lower page, and upper page 03h unless flat.
ModulePages Sff8636Pages(const ModuleValues& values);
// A QSFP-DD (identifier 0x18): the lower page, and pages 01h, 02h, 11h unless flat.
ModulePages CmisPages(const ModuleValues& values);

// Four lanes at -2 dBm (0.63 mW) receive, 0.8 mW transmit, 7 mA bias.
ModuleValues HealthyQuadLanes();

}  // namespace rocewatch
