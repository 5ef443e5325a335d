#include "ethtool/module_eeprom.h"

#include <gtest/gtest.h>

#include "support/module_pages.h"

namespace rocewatch {
namespace {

TEST(ModuleEepromTest, Sff8636MonitorsAndThresholds) {
  ModuleValues values = HealthyQuadLanes();
  values.temperature_celsius = -3.5;
  values.rx_power_watts[2] = 0.2e-3;
  ModulePages pages = Sff8636Pages(values);
  ASSERT_EQ(UpperPagesFor(pages.at(LowerPageAddress())),
            (std::vector<ModulePageAddress>{{0x03, 0, 128, 128}}));
  StatusOr<ModuleReading> m = DecodeModule(pages);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->standard, ModuleStandard::kSff8636);
  EXPECT_EQ(m->identifier, 0x11);
  EXPECT_DOUBLE_EQ(*m->temperature_celsius, -3.5);
  EXPECT_NEAR(*m->supply_volts, 3.3, 1e-4);
  ASSERT_EQ(m->lanes.size(), 4u);
  EXPECT_NEAR(*m->lanes[2].rx_power_watts, 0.2e-3, 1e-7);
  EXPECT_NEAR(*m->lanes[0].tx_bias_amperes, 7e-3, 2e-6);
  EXPECT_NEAR(*m->lanes[3].tx_power_watts, 0.8e-3, 1e-7);
  ASSERT_TRUE(m->rx_power_thresholds);
  EXPECT_NEAR(m->rx_power_thresholds->low_alarm, 0.04e-3, 1e-7);
  EXPECT_NEAR(m->temperature_thresholds->high_alarm, 75, 1e-9);
  EXPECT_NEAR(m->tx_bias_thresholds->high_warning, 13e-3, 2e-6);
}

TEST(ModuleEepromTest, Sff8636ByteOffsetsAreTheSpecifications) {
  ModulePages pages = Sff8636Pages(HealthyQuadLanes());
  const std::string& lower = pages.at(LowerPageAddress());
  // Temperature 40.5 degC = 0x2880 at bytes 22-23; rx power lane 1 = 6300 (0.1 uW) at 34-35.
  EXPECT_EQ(static_cast<uint8_t>(lower[22]), 0x28);
  EXPECT_EQ(static_cast<uint8_t>(lower[23]), 0x80);
  EXPECT_EQ((static_cast<uint8_t>(lower[34]) << 8) | static_cast<uint8_t>(lower[35]), 6300);
}

TEST(ModuleEepromTest, FlatMemoryHasNoUpperPagesAndNoThresholds) {
  ModuleValues values = HealthyQuadLanes();
  values.flat_memory = true;
  ModulePages pages = Sff8636Pages(values);
  EXPECT_TRUE(UpperPagesFor(pages.at(LowerPageAddress())).empty());
  StatusOr<ModuleReading> m = DecodeModule(pages);
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->rx_power_thresholds);
  EXPECT_EQ(m->lanes.size(), 4u);
}

TEST(ModuleEepromTest, CmisLanesStatesAndThresholds) {
  ModuleValues values = HealthyQuadLanes();
  values.rx_power_watts.resize(8, 0.5e-3);
  values.tx_power_watts.resize(8, 0.7e-3);
  values.tx_bias_amperes.resize(8, 6e-3);
  values.lane_active = {true, true, true, true, true, true, false, false};
  ModulePages pages = CmisPages(values);
  EXPECT_EQ(UpperPagesFor(pages.at(LowerPageAddress())).size(), 3u);
  StatusOr<ModuleReading> m = DecodeModule(pages);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->standard, ModuleStandard::kCmis);
  EXPECT_NEAR(*m->temperature_celsius, 40.5, 1e-9);
  ASSERT_EQ(m->lanes.size(), 8u);
  EXPECT_NEAR(*m->lanes[7].rx_power_watts, 0.5e-3, 1e-7);
  EXPECT_NEAR(*m->lanes[0].rx_power_watts, 0.63e-3, 1e-7);
  EXPECT_TRUE(m->lanes[5].active);
  EXPECT_FALSE(m->lanes[6].active);
  EXPECT_NEAR(m->rx_power_thresholds->low_warning, 0.1e-3, 1e-7);
  EXPECT_NEAR(m->tx_power_thresholds->high_alarm, 3.5e-3, 1e-7);
  EXPECT_NEAR(m->voltage_thresholds->low_alarm, 2.97, 1e-4);
}

TEST(ModuleEepromTest, MissingUpperPagesLeaveValuesAbsent) {
  ModulePages pages = CmisPages(HealthyQuadLanes());
  pages.erase({0x11, 0, 128, 128});
  pages.erase({0x02, 0, 128, 128});
  StatusOr<ModuleReading> m = DecodeModule(pages);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->lanes.empty());
  EXPECT_FALSE(m->rx_power_thresholds);
  EXPECT_TRUE(m->temperature_celsius);
}

TEST(ModuleEepromTest, ZeroThresholdsMeanNone) {
  ModuleValues values = HealthyQuadLanes();
  values.rx_power = {};
  StatusOr<ModuleReading> m = DecodeModule(Sff8636Pages(values));
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->rx_power_thresholds);
  EXPECT_TRUE(m->temperature_thresholds);
}

TEST(ModuleEepromTest, UnknownOrShortLowerPagesAreErrors) {
  ModulePages gbic;  // SFP modules (SFF-8472): tests/ethtool/module_eeprom_sff8472_test.cc
  gbic[LowerPageAddress()] = std::string(128, '\0');
  gbic[LowerPageAddress()][0] = 0x01;  // GBIC: not decoded
  EXPECT_FALSE(DecodeModule(gbic).ok());
  EXPECT_TRUE(UpperPagesFor(gbic[LowerPageAddress()]).empty());
  ModulePages short_page;
  short_page[LowerPageAddress()] = std::string(10, '\x11');
  EXPECT_FALSE(DecodeModule(short_page).ok());
  EXPECT_FALSE(DecodeModule({}).ok());
}

}  // namespace
}  // namespace rocewatch
