#include "export/exposition_text.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rocewatch {
namespace {

TEST(ExpositionText, ReadsSamplesWithLabelsAndSkipsComments) {
  StatusOr<std::vector<ExposedSample>> samples = ParseExposition(
      "# HELP rocewatch_netdev_pre_fec_ber Estimated pre-FEC BER.\n"
      "# TYPE rocewatch_netdev_pre_fec_ber gauge\n"
      "rocewatch_netdev_pre_fec_ber{netdev=\"ens1f0np0\"} 3.0000000000000001e-05\n"
      "\n"
      "rocewatch_last_poll_timestamp_seconds 1796112000.25 1796112000250\n"
      "odd{a=\"x\\\"y\\\\z\\n\",b=\"\",} +Inf\n"
      "nan_value NaN\n");
  ASSERT_TRUE(samples.ok()) << samples.status().ToString();
  ASSERT_EQ(samples->size(), 4u);
  EXPECT_EQ((*samples)[0].name, "rocewatch_netdev_pre_fec_ber");
  EXPECT_EQ((*samples)[0].labels.at("netdev"), "ens1f0np0");
  EXPECT_DOUBLE_EQ((*samples)[0].value, 3e-5);
  EXPECT_DOUBLE_EQ((*samples)[1].value, 1796112000.25);  // the timestamp is ignored
  EXPECT_EQ((*samples)[2].labels.at("a"), "x\"y\\z\n");
  EXPECT_EQ((*samples)[2].labels.at("b"), "");
  EXPECT_TRUE(std::isinf((*samples)[2].value));
  EXPECT_TRUE(std::isnan((*samples)[3].value));
  EXPECT_EQ(SamplesNamed(*samples, "nan_value").size(), 1u);
  EXPECT_TRUE(SamplesNamed(*samples, "absent").empty());
}

TEST(ExpositionText, WhatIsNotASampleIsCorruptNamingTheLine) {
  for (const char* text : {"<html>nope</html>\n", "metric{a=\"unterminated} 1\n",
                           "metric notanumber\n", "metric{a=1} 2\n", "metric\n"}) {
    StatusOr<std::vector<ExposedSample>> samples = ParseExposition(std::string("ok 1\n") + text);
    ASSERT_FALSE(samples.ok()) << text;
    EXPECT_EQ(samples.status().code(), StatusCode::kCorrupt);
    EXPECT_NE(samples.status().message().find("line 2"), std::string::npos)
        << samples.status().message();
  }
}

}  // namespace
}  // namespace rocewatch
