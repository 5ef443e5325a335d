#include "ethtool/driver_counter_meaning.h"

#include <gtest/gtest.h>

#include "ethtool/ethtool_readings.h"

namespace rocewatch {
namespace {

TEST(DriverCounterMeaningTest, KnowsMlx5PhyCounters) {
  EXPECT_EQ(InterpretDriverCounter("rx_symbol_err_phy").kind, DriverCounterKind::kPhySymbolErrors);
  EXPECT_EQ(InterpretDriverCounter("rx_pcs_symbol_err_phy").kind,
            DriverCounterKind::kPcsSymbolErrors);
  EXPECT_EQ(InterpretDriverCounter("rx_corrected_bits_phy").kind,
            DriverCounterKind::kPhyCorrectedBits);
  EXPECT_EQ(InterpretDriverCounter("link_down_events_phy").kind,
            DriverCounterKind::kPhyLinkDownEvents);
  EXPECT_EQ(InterpretDriverCounter("rx_discards_phy").kind, DriverCounterKind::kPhyDiscards);
  DriverCounterMeaning lane = InterpretDriverCounter("rx_err_lane_3_phy");
  EXPECT_EQ(lane.kind, DriverCounterKind::kPhyCorrectedBitsLane);
  EXPECT_EQ(lane.lane, 3);
}

TEST(DriverCounterMeaningTest, ReadsPriorityAndDirectionOfPfcCounters) {
  EXPECT_EQ(
      InterpretDriverCounter("tx_prio3_pause_duration"),
      (DriverCounterMeaning{DriverCounterKind::kPfcPauseDuration, 3, {}, PauseDirection::kTx}));
  EXPECT_EQ(InterpretDriverCounter("rx_prio0_pause"),
            (DriverCounterMeaning{DriverCounterKind::kPfcPauseFrames, 0, {}, PauseDirection::kRx}));
  EXPECT_EQ(InterpretDriverCounter("rx_prio7_pause_transition").kind,
            DriverCounterKind::kPfcPauseTransitions);
  EXPECT_EQ(InterpretDriverCounter("tx_pause_storm_error_events").kind,
            DriverCounterKind::kPauseStormErrorEvents);
  EXPECT_EQ(InterpretDriverCounter("rx_global_pause_duration").kind,
            DriverCounterKind::kGlobalPauseDuration);
}

TEST(DriverCounterMeaningTest, PassesUnknownAndMalformedNamesThrough) {
  for (const char* name :
       {"rx_packets", "peer_ifindex", "rx_prio8_pause", "rx_prio_pause",
        "tx_prio3_pause_transition", "rx_prio3_pausex", "rx_err_lane_x_phy", "rx_prio-1_pause", ""})
    EXPECT_EQ(InterpretDriverCounter(name).kind, DriverCounterKind::kUnknown) << name;
}

TEST(DriverCounterMeaningTest, InterpretsAReadingOnceByMeaning) {
  DriverStatistics s;
  s.counters = {{"rx_packets", 1},           {"rx_corrected_bits_phy", 500},
                {"rx_err_lane_0_phy", 250},  {"tx_prio3_pause_duration", 90},
                {"rx_prio3_pause", 4},       {"tx_pause_storm_error_events", 2},
                {"rx_corrected_bits_phy", 7}};
  InterpretedDriverCounters c = InterpretDriverCounters(s.counters);
  EXPECT_EQ(c.Total(DriverCounterKind::kPhyCorrectedBits), 500u);  // the first one wins
  EXPECT_EQ(c.Total(DriverCounterKind::kPauseStormErrorEvents), 2u);
  EXPECT_EQ(c.Total(DriverCounterKind::kPhyCorrectedBitsLane), std::nullopt);  // lanes left out
  EXPECT_EQ(c.Total(DriverCounterKind::kUnknown), std::nullopt);
  ASSERT_EQ(c.per_priority.size(), 2u);
  EXPECT_EQ(c.per_priority[0].kind, DriverCounterKind::kPfcPauseDuration);
  EXPECT_EQ(c.per_priority[0].priority, 3);
  EXPECT_EQ(c.per_priority[0].direction, PauseDirection::kTx);
  EXPECT_EQ(c.per_priority[0].value, 90u);
}

}  // namespace
}  // namespace rocewatch
