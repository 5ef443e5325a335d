#include "ethtool/ethtool_text.h"

#include <gtest/gtest.h>

#include "ethtool/ethtool_recording.h"

namespace rocewatch {
namespace {

TEST(EthtoolTextTest, ParsesEthtoolDashSOutput) {
  StatusOr<DriverStatistics> s = ParseDriverStatisticsText(
      "NIC statistics:\n     rx_packets: 12\n     rx_corrected_bits_phy: 18446744073709551615\n");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_EQ(s->counters.size(), 2u);
  EXPECT_EQ(s->Find("rx_packets"), 12u);
  EXPECT_EQ(s->Find("rx_corrected_bits_phy"), UINT64_MAX);
  EXPECT_EQ(s->Find("absent"), std::nullopt);
}

TEST(EthtoolTextTest, FormatAndParseRoundTrip) {
  DriverStatistics s;
  s.counters = {{"rx_prio3_pause", 7}, {"a name: with colon", 1}, {"rx_packets", 0}};
  StatusOr<DriverStatistics> back = ParseDriverStatisticsText(FormatDriverStatisticsText(s));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->counters, s.counters);
}

TEST(EthtoolTextTest, RejectsValuesThatAreNotCountersNamingThem) {
  StatusOr<DriverStatistics> s = ParseDriverStatisticsText("NIC statistics:\n  rx: -1\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("'rx'"), std::string::npos);
  EXPECT_FALSE(ParseDriverStatisticsText("NIC statistics:\n  garbage line\n").ok());
  EXPECT_FALSE(ParseDriverStatisticsText("rx: 12abc\n").ok());
}

TEST(EthtoolRecordingTest, FecLinkStatePauseAndStandardRoundTrip) {
  FecReading fec;
  fec.corrected_blocks = 100;
  fec.uncorrectable_blocks = 2;
  fec.corrected_bits = 5000;
  fec.corrected_blocks_per_lane = {25, 25, 25, 25};
  fec.active_mode_bit = 50;
  StatusOr<FecReading> fec_back = ParseFecRecording(FormatFecRecording(fec));
  ASSERT_TRUE(fec_back.ok());
  EXPECT_EQ(*fec_back, fec);

  LinkStateReading link{false, 3, 1, 9};
  StatusOr<LinkStateReading> link_back = ParseLinkStateRecording(FormatLinkStateRecording(link));
  ASSERT_TRUE(link_back.ok());
  EXPECT_EQ(*link_back, link);

  PauseReading pause{false, true, true, 10, 20};
  StatusOr<PauseReading> pause_back = ParsePauseRecording(FormatPauseRecording(pause));
  ASSERT_TRUE(pause_back.ok());
  EXPECT_EQ(*pause_back, pause);

  StandardStatistics standard;
  standard.counters = {{"eth-phy.SymbolErrorDuringCarrier", 4}};
  StatusOr<StandardStatistics> standard_back =
      ParseStandardStatisticsRecording(FormatStandardStatisticsRecording(standard));
  ASSERT_TRUE(standard_back.ok());
  EXPECT_EQ(*standard_back, standard);
}

TEST(EthtoolRecordingTest, BadValuesAreErrors) {
  EXPECT_FALSE(ParseLinkStateRecording("link: maybe\n").ok());
  EXPECT_FALSE(ParseLinkStateRecording("ext_state: 300\n").ok());
  EXPECT_FALSE(ParseFecRecording("corrected_blocks: lots\n").ok());
  EXPECT_FALSE(ParseFecRecording("corrected_blocks_lane99: 1\n").ok());
  EXPECT_FALSE(ParsePauseRecording("rx: sometimes\n").ok());
}

TEST(EthtoolRecordingTest, ModulePageFileNames) {
  EXPECT_EQ(ModulePageFileName({0, 0, 0, 128}), "lower");
  EXPECT_EQ(ModulePageFileName({0x03, 0, 128, 128}), "page03");
  EXPECT_EQ(ModulePageFileName({0x11, 1, 128, 128}), "bank1-page11");
}

TEST(LinkExtStateTest, DescribesKnownAndPassesUnknownThrough) {
  EXPECT_EQ(DescribeLinkExtState({false, 3, 1, {}}),
            "bad signal integrity (large number of physical errors)");
  EXPECT_EQ(DescribeLinkExtState({false, 4, {}, {}}), "no cable");
  EXPECT_EQ(DescribeLinkExtState({false, 200, 7, {}}), "state 200, substate 7");
  EXPECT_EQ(DescribeLinkExtState({false, 3, 99, {}}), "bad signal integrity, substate 99");
  EXPECT_EQ(DescribeLinkExtState({true, {}, {}, {}}), "");
}

}  // namespace
}  // namespace rocewatch
