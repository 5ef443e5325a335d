#include "ethtool/driver_counter_meaning.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace rocewatch
