// SFF-8472 (SFP, SFP+, SFP28) diagnostics on byte-exact fixtures laid out as the specification
// (rev 12.4) places them: the serial ID at I2C address A0h (identifier byte 0, diagnostic
// monitoring type byte 92) and the diagnostics at A2h (thresholds 0-39, external calibration
// constants 56-91, monitors 96-105, status/control 110).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ethtool/ethtool_poller.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/module_eeprom.h"
#include "link_quality/optics_detector.h"
#include "support/fake_file_system.h"

namespace rocewatch {
namespace {

constexpr uint8_t kDdm = 0x40;           // byte 92 bit 6: digital diagnostics implemented
constexpr uint8_t kInternal = 0x20;      // bit 5: internally calibrated
constexpr uint8_t kExternal = 0x10;      // bit 4: externally calibrated
constexpr uint8_t kAveragePower = 0x08;  // bit 3: rx power is average power (not OMA)

const ModulePageAddress kA2{0, 0, 0, 128, ModulePageAddress::kSfpDiagnosticsI2cAddress};

void PutWord(std::string& page, size_t at, uint16_t value) {
  page[at] = static_cast<char>(value >> 8);
  page[at + 1] = static_cast<char>(value & 0xFF);
}
void PutFloat(std::string& page, size_t at, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  PutWord(page, at, static_cast<uint16_t>(bits >> 16));
  PutWord(page, at + 2, static_cast<uint16_t>(bits & 0xFFFF));
}
// Four threshold words: high alarm, low alarm, high warning, low warning.
void PutThresholds(std::string& page, size_t at, uint16_t ha, uint16_t la, uint16_t hw,
                   uint16_t lw) {
  PutWord(page, at, ha);
  PutWord(page, at + 2, la);
  PutWord(page, at + 4, hw);
  PutWord(page, at + 6, lw);
}

std::string A0(uint8_t identifier, uint8_t monitoring) {
  std::string page(128, '\0');
  page[0] = static_cast<char>(identifier);
  page[92] = static_cast<char>(monitoring);
  page[94] = 0x08;  // SFF-8472 compliance: rev 12.3
  return page;
}

// An internally calibrated SFP28: 35.5 degC, 3.30 V, 6.5 mA, tx 0.5 mW, rx 0.4 mW.
std::string InternalA2() {
  std::string page(128, '\0');
  PutThresholds(page, 0, 80 * 256, static_cast<uint16_t>(-10 * 256), 75 * 256,
                static_cast<uint16_t>(-5 * 256));      // temperature, 1/256 degC, signed
  PutThresholds(page, 8, 36000, 30000, 35000, 31000);  // voltage, 100 uV
  PutThresholds(page, 16, 7500, 500, 6000, 1000);      // tx bias, 2 uA: 15, 1, 12, 2 mA
  PutThresholds(page, 24, 10000, 1000, 8000, 1500);    // tx power, 0.1 uW: 1.0 .. 0.1 mW
  PutThresholds(page, 32, 12000, 200, 10000, 400);     // rx power: 1.2, 0.02, 1.0, 0.04 mW
  PutWord(page, 96, 9088);                             // 35.5 degC
  PutWord(page, 98, 33000);                            // 3.3 V
  PutWord(page, 100, 3250);                            // 6.5 mA
  PutWord(page, 102, 5000);                            // 0.5 mW
  PutWord(page, 104, 4000);                            // 0.4 mW
  return page;
}

ModulePages Pages(const std::string& a0, const std::string& a2) {
  ModulePages pages{{LowerPageAddress(), a0}};
  if (!a2.empty()) pages[kA2] = a2;
  return pages;
}

TEST(Sff8472, AnSfpWithDiagnosticsAsksForItsA2hPage) {
  EXPECT_EQ(UpperPagesFor(A0(0x03, kDdm | kInternal)), std::vector<ModulePageAddress>{kA2});
  EXPECT_EQ(UpperPagesFor(A0(0x02, kDdm | kExternal)), std::vector<ModulePageAddress>{kA2});
  EXPECT_TRUE(UpperPagesFor(A0(0x03, 0)).empty());  // no diagnostics: nothing more to read
  EXPECT_EQ(ModulePageFileName(kA2), "a2h-lower");
}

TEST(Sff8472, InternallyCalibratedMonitorsAndThresholds) {
  StatusOr<ModuleReading> m =
      DecodeModule(Pages(A0(0x03, kDdm | kInternal | kAveragePower), InternalA2()));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->standard, ModuleStandard::kSff8472);
  EXPECT_STREQ(ModuleStandardLabel(m->standard), "SFF-8472");
  EXPECT_EQ(m->identifier, 0x03);
  EXPECT_DOUBLE_EQ(*m->temperature_celsius, 35.5);
  EXPECT_NEAR(*m->supply_volts, 3.3, 1e-9);
  ASSERT_EQ(m->lanes.size(), 1u);
  const ModuleLane& lane = m->lanes[0];
  EXPECT_EQ(lane.lane, 1);
  EXPECT_TRUE(lane.active);
  EXPECT_NEAR(*lane.tx_bias_amperes, 6.5e-3, 1e-12);
  EXPECT_NEAR(*lane.tx_power_watts, 0.5e-3, 1e-12);
  EXPECT_NEAR(*lane.rx_power_watts, 0.4e-3, 1e-12);
  ASSERT_TRUE(m->temperature_thresholds);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->high_alarm, 80);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->low_alarm, -10);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->high_warning, 75);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->low_warning, -5);
  EXPECT_NEAR(m->voltage_thresholds->high_alarm, 3.6, 1e-9);
  EXPECT_NEAR(m->tx_bias_thresholds->high_warning, 12e-3, 1e-12);
  EXPECT_NEAR(m->tx_power_thresholds->low_alarm, 0.1e-3, 1e-12);
  EXPECT_NEAR(m->rx_power_thresholds->low_warning, 0.04e-3, 1e-12);
  EXPECT_TRUE(EvaluateOptics(*m).violations.empty());
}

TEST(Sff8472, ExternallyCalibratedValuesAndThresholdsAreConverted) {
  std::string a2(128, '\0');
  PutThresholds(a2, 0, 0x2000, 0, 0x1E00, 0x0100);  // raw: calibrated as the monitors
  PutFloat(a2, 56, 0);                              // Rx_PWR(4)
  PutFloat(a2, 60, 0);                              // Rx_PWR(3)
  PutFloat(a2, 64, 0);                              // Rx_PWR(2)
  PutFloat(a2, 68, 2.0f);                           // Rx_PWR(1)
  PutFloat(a2, 72, 100.0f);                         // Rx_PWR(0)
  PutWord(a2, 76, 0x0080);                          // tx bias slope 0.5
  PutWord(a2, 78, 0);                               // offset 0
  PutWord(a2, 80, 0x0100);                          // tx power slope 1
  PutWord(a2, 82, 50);                              // offset +50 (5 uW)
  PutWord(a2, 84, 0x0200);                          // temperature slope 2
  PutWord(a2, 86, 0x0100);                          // offset +256 (1 degC)
  PutWord(a2, 88, 0x0100);                          // voltage slope 1
  PutWord(a2, 90, static_cast<uint16_t>(-1000));    // offset -0.1 V
  PutWord(a2, 96, 0x1000);                          // raw temperature 16 degC
  PutWord(a2, 98, 34000);                           // raw 3.4 V
  PutWord(a2, 100, 4000);                           // raw 8 mA
  PutWord(a2, 102, 5000);                           // raw 0.5 mW
  PutWord(a2, 104, 1000);                           // raw 0.1 mW
  StatusOr<ModuleReading> m = DecodeModule(Pages(A0(0x03, kDdm | kExternal), a2));
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_DOUBLE_EQ(*m->temperature_celsius, 33.0);  // 2 x 4096 + 256 = 8448 / 256
  EXPECT_NEAR(*m->supply_volts, 3.3, 1e-9);
  EXPECT_NEAR(*m->lanes[0].tx_bias_amperes, 4e-3, 1e-12);
  EXPECT_NEAR(*m->lanes[0].tx_power_watts, 0.505e-3, 1e-12);
  EXPECT_NEAR(*m->lanes[0].rx_power_watts, 210e-6, 1e-12);  // 2 x 1000 + 100 = 2100 x 0.1 uW
  ASSERT_TRUE(m->temperature_thresholds);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->high_alarm, 65.0);  // 2 x 8192 + 256
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->low_alarm, 1.0);
  EXPECT_DOUBLE_EQ(m->temperature_thresholds->low_warning, 3.0);
}

TEST(Sff8472, GarbageCalibrationConstantsGiveNoLightNotUndefinedValues) {
  std::string a2 = InternalA2();
  for (size_t at = 56; at < 76; at += 4) PutFloat(a2, at, std::nanf(""));
  StatusOr<ModuleReading> m = DecodeModule(Pages(A0(0x03, kDdm | kExternal), a2));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m->lanes[0].rx_power_watts, 0.0);
}

TEST(Sff8472, ALowRxPowerIsOutOfTheModulesOwnRange) {
  std::string a2 = InternalA2();
  PutWord(a2, 104, 150);  // 15 uW: below the 20 uW low alarm
  StatusOr<ModuleReading> m = DecodeModule(Pages(A0(0x03, kDdm | kInternal), a2));
  ASSERT_TRUE(m.ok());
  OpticsStatus status = EvaluateOptics(*m);
  ASSERT_EQ(status.violations.size(), 1u);
  EXPECT_EQ(status.violations[0].quantity, "rx_power");
  EXPECT_EQ(status.violations[0].lane, 1);
  EXPECT_EQ(status.violations[0].level, OpticsLevel::kAlarm);
  EXPECT_FALSE(status.violations[0].high);
}

TEST(Sff8472, ADisabledTransmitterIsNotAnActiveLane) {
  std::string a2 = InternalA2();
  a2[110] = static_cast<char>(0x80);  // TX Disable State
  StatusOr<ModuleReading> m = DecodeModule(Pages(A0(0x03, kDdm | kInternal), a2));
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->lanes[0].active);
}

TEST(Sff8472, WithoutDiagnosticsOrTheirPageTheModuleIsKnownButHasNoValues) {
  for (const ModulePages& pages : {Pages(A0(0x03, 0), ""), Pages(A0(0x03, kDdm | kInternal), "")}) {
    StatusOr<ModuleReading> m = DecodeModule(pages);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_EQ(m->standard, ModuleStandard::kSff8472);
    EXPECT_FALSE(m->temperature_celsius);
    EXPECT_TRUE(m->lanes.empty());
  }
  StatusOr<ModuleReading> unknown = DecodeModule(Pages(A0(0x01, kDdm), ""));  // GBIC
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("SFF-8472"), std::string::npos);
}

// A recorded SFP (lower page and a2h-lower under module/) reads and decodes through the poller,
// as `diagnose --host-root BUNDLE` reads it.
TEST(Sff8472, ARecordedSfpDecodesThroughThePoller) {
  FakeFileSystem fs;
  const std::string dir = "/host/rocewatch/ethtool/eth0/module/";
  fs.AddFile(dir + "lower", A0(0x03, kDdm | kInternal));
  fs.AddFile(dir + ModulePageFileName(kA2), InternalA2());
  EthtoolPoller poller(fs, "/host", "/host/sys", nullptr, nullptr);
  ModuleOutcome outcome = poller.PollModule("eth0");
  ASSERT_TRUE(outcome.module) << outcome.error;
  EXPECT_EQ(outcome.module->standard, ModuleStandard::kSff8472);
  EXPECT_DOUBLE_EQ(*outcome.module->temperature_celsius, 35.5);
  EXPECT_EQ(outcome.pages.count(kA2), 1u);
}

}  // namespace
}  // namespace rocewatch
