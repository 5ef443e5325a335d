#include "link_quality/optics_detector.h"

#include <gtest/gtest.h>

#include "support/module_pages.h"

namespace rocewatch {
namespace {

ModuleReading Decode(const ModulePages& pages) {
  StatusOr<ModuleReading> m = DecodeModule(pages);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? *m : ModuleReading{};
}

TEST(OpticsDetectorTest, HealthyModuleIsInRange) {
  OpticsStatus status = EvaluateOptics(Decode(Sff8636Pages(HealthyQuadLanes())));
  EXPECT_TRUE(status.violations.empty());
  EXPECT_TRUE(status.dark_lanes.empty());
  EXPECT_TRUE(OpticsFindings("ens1f0np0", status).empty());
}

TEST(OpticsDetectorTest, OutOfTheModulesOwnWarningAndAlarmRanges) {
  ModuleValues values = HealthyQuadLanes();
  values.temperature_celsius = 72;     // above the 70 degC warning, below the 75 alarm
  values.rx_power_watts[1] = 0.06e-3;  // below the 0.1 mW warning, above the 0.04 alarm
  values.tx_bias_amperes[3] = 16e-3;   // above the 15 mA alarm
  OpticsStatus status = EvaluateOptics(Decode(Sff8636Pages(values)));
  ASSERT_EQ(status.violations.size(), 3u);
  EXPECT_EQ(status.violations[0].quantity, "temperature");
  EXPECT_EQ(status.violations[0].level, OpticsLevel::kWarning);
  EXPECT_EQ(status.violations[1].quantity, "rx_power");
  EXPECT_EQ(status.violations[1].lane, 2);
  EXPECT_FALSE(status.violations[1].high);
  EXPECT_EQ(status.violations[2].quantity, "tx_bias");
  EXPECT_EQ(status.violations[2].level, OpticsLevel::kAlarm);
  std::vector<Finding> findings = OpticsFindings("ens1f0np0", status);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].check, "optics_alarm");
  EXPECT_NE(
      findings[0].message.find("tx bias lane 4 16.00 mA above the module's high alarm 15.00 mA"),
      std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[1].check, "optics_warning");
}

TEST(OpticsDetectorTest, ALaneLosingLightWhileOthersHoldIsDark) {
  ModuleValues values = HealthyQuadLanes();
  values.rx_power_watts[2] = 0;
  OpticsStatus status = EvaluateOptics(Decode(CmisPages(values)));
  // Lanes 5-8 of the QSFP-DD carry nothing in this 4-lane fixture but are active: dark too.
  EXPECT_EQ(status.dark_lanes, (std::vector<int>{3, 5, 6, 7, 8}));
  values.lane_active = {true, true, true, true, false, false, false, false};
  status = EvaluateOptics(Decode(CmisPages(values)));
  EXPECT_EQ(status.dark_lanes, (std::vector<int>{3}));
  std::vector<Finding> findings = OpticsFindings("ens1f0np0", status);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].check, "optics_lane_dark");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);  // a swap at the next drain
}

TEST(OpticsDetectorTest, AllLanesDarkIsNotALaneProblem) {
  ModuleValues values = HealthyQuadLanes();
  values.rx_power_watts = {0, 0, 0, 0};
  OpticsStatus status = EvaluateOptics(Decode(Sff8636Pages(values)));
  EXPECT_TRUE(status.dark_lanes.empty());   // the link is down: the flap detector speaks
  EXPECT_EQ(status.violations.size(), 4u);  // each below the low alarm
}

TEST(OpticsDetectorTest, DisabledLanesAreNotChecked) {
  ModuleValues values = HealthyQuadLanes();
  values.rx_power_watts[3] = 0;
  values.lane_active = {true, true, true, false};
  OpticsStatus status = EvaluateOptics(Decode(Sff8636Pages(values)));
  EXPECT_TRUE(status.violations.empty());
  EXPECT_TRUE(status.dark_lanes.empty());
}

TEST(OpticsDetectorTest, FormatsValuesForPeople) {
  EXPECT_EQ(FormatOpticsValue("rx_power", 1e-3), "0.00 dBm");
  EXPECT_EQ(FormatOpticsValue("rx_power", 0), "0 mW (no light)");
  EXPECT_EQ(FormatOpticsValue("temperature", 41.25), "41.2 degC");
  EXPECT_EQ(FormatOpticsValue("tx_bias", 7e-3), "7.00 mA");
}

}  // namespace
}  // namespace rocewatch
