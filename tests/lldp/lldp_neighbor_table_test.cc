#include "fabric/lldp_neighbor_table.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/lldp_frames.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class LldpNeighborTableTest : public ::testing::Test {
 protected:
  LldpFrameOutcome Receive(const std::string& netdev, const LldpFrameBuilder& frame) {
    return table.Observe(netdev, frame.Build(), clock.Now());
  }
  FakeClock clock;
  LldpNeighborTable table;
};

TEST_F(LldpNeighborTableTest, AFrameMakesTheNetdevsNeighbor) {
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3)), LldpFrameOutcome::kAccepted);
  const LldpNeighbor* n = table.neighbor("rnic0");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->frame.system_name, "leaf-07");
  EXPECT_EQ(n->frame.port_id.value, "swp3");
  EXPECT_EQ(n->expires, clock.Now() + seconds(120));
  EXPECT_EQ(table.counters().at("rnic0").frames, 1u);
  EXPECT_EQ(table.neighbor("rnic1"), nullptr);
}

TEST_F(LldpNeighborTableTest, AByteIdenticalRepeatRefreshesTheTtlWithoutParsingNewContent) {
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08)), LldpFrameOutcome::kAccepted);
  clock.Advance(seconds(100));
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x08)), LldpFrameOutcome::kRepeated);
  EXPECT_EQ(table.neighbor("rnic0")->last_seen, clock.Now());
  EXPECT_EQ(table.neighbor("rnic0")->expires, clock.Now() + seconds(120));
  clock.Advance(seconds(100));
  EXPECT_TRUE(table.Expire(clock.Now()).empty()) << "the repeat restarted the TTL";
  EXPECT_EQ(table.counters().at("rnic0").frames, 2u);
  // New content from the same far end (PFC changed on the switch) is a change, and is parsed.
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3).Pfc(0x18)), LldpFrameOutcome::kAccepted);
  EXPECT_EQ(table.neighbor("rnic0")->frame.pfc->enabled, 0x18);
  // The same bytes on another netdev are that netdev's first frame.
  EXPECT_EQ(Receive("rnic1", LldpFrameBuilder::Leaf(7, 3).Pfc(0x18)), LldpFrameOutcome::kAccepted);
}

TEST_F(LldpNeighborTableTest, TheNewestSenderIsTheNeighborAndFirstSeenFollowsTheFarEnd) {
  MonoTime start = clock.Now();
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
  clock.Advance(seconds(30));
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
  EXPECT_EQ(table.neighbor("rnic0")->first_seen, start);
  EXPECT_EQ(table.neighbor("rnic0")->last_seen, clock.Now());
  clock.Advance(seconds(1));
  Receive("rnic0", LldpFrameBuilder::Leaf(8, 3));  // recabled to another switch
  EXPECT_EQ(table.neighbor("rnic0")->frame.system_name, "leaf-08");
  EXPECT_EQ(table.neighbor("rnic0")->first_seen, clock.Now());
  EXPECT_EQ(table.neighbors().size(), 1u);
}

TEST_F(LldpNeighborTableTest, ANeighborExpiresWhenItsTtlPasses) {
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3).Ttl(10));
  Receive("rnic1", LldpFrameBuilder::Leaf(7, 4).Ttl(120));
  EXPECT_EQ(table.NextExpiry(), clock.Now() + seconds(10));
  clock.Advance(seconds(10) - milliseconds(1));
  EXPECT_TRUE(table.Expire(clock.Now()).empty());
  clock.Advance(milliseconds(1));
  EXPECT_EQ(table.Expire(clock.Now()), std::vector<std::string>{"rnic0"});
  EXPECT_EQ(table.neighbor("rnic0"), nullptr);
  EXPECT_NE(table.neighbor("rnic1"), nullptr);
  EXPECT_EQ(table.counters().at("rnic0").frames, 1u);  // counters outlive the neighbor
}

TEST_F(LldpNeighborTableTest, TtlZeroRemovesThatSenderOnly) {
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(8, 3).Ttl(0)), LldpFrameOutcome::kShutdown);
  EXPECT_NE(table.neighbor("rnic0"), nullptr);
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3).Ttl(0)), LldpFrameOutcome::kShutdown);
  EXPECT_EQ(table.neighbor("rnic0"), nullptr);
}

TEST_F(LldpNeighborTableTest, InvalidFramesAreCountedAndLeaveTheNeighbor) {
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
  std::vector<uint8_t> truncated = LldpFrameBuilder::Leaf(8, 1).Build();
  truncated.resize(20);
  EXPECT_EQ(table.Observe("rnic0", truncated, clock.Now()), LldpFrameOutcome::kInvalid);
  const LldpNetdevCounters& c = table.counters().at("rnic0");
  EXPECT_EQ(c.frames, 2u);
  EXPECT_EQ(c.invalid, 1u);
  EXPECT_NE(c.last_invalid_reason.find("runs past"), std::string::npos) << c.last_invalid_reason;
  EXPECT_EQ(table.neighbor("rnic0")->frame.system_name, "leaf-07");
}

TEST_F(LldpNeighborTableTest, AFloodIsCappedPerNetdevWithoutParsing) {
  // 10,000 frames in one second on rnic0: the burst (20) and 10/s pass, the rest is dropped.
  for (int i = 0; i < 10000; ++i) {
    Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
    clock.Advance(std::chrono::microseconds(100));
  }
  const LldpNetdevCounters& c = table.counters().at("rnic0");
  EXPECT_EQ(c.frames, 10000u);
  EXPECT_GE(c.dropped, 10000u - 31);
  EXPECT_LE(c.dropped, 10000u - 29);
  EXPECT_EQ(table.neighbors().size(), 1u);
  // Another rail is not affected.
  EXPECT_EQ(Receive("rnic1", LldpFrameBuilder::Leaf(7, 4)), LldpFrameOutcome::kAccepted);
  // Once the flood stops, the bucket refills: admitted again (the same frame: a repeat).
  clock.Advance(seconds(2));
  EXPECT_EQ(Receive("rnic0", LldpFrameBuilder::Leaf(7, 3)), LldpFrameOutcome::kRepeated);
}

TEST_F(LldpNeighborTableTest, KernelDropsCountAsReceivedAndDropped) {
  table.CountKernelDrops("rnic0", 5);
  EXPECT_EQ(table.counters().at("rnic0").frames, 5u);
  EXPECT_EQ(table.counters().at("rnic0").dropped, 5u);
}

TEST_F(LldpNeighborTableTest, TrackAndForget) {
  table.Track("rnic0");
  EXPECT_EQ(table.counters().at("rnic0").frames, 0u);
  Receive("rnic0", LldpFrameBuilder::Leaf(7, 3));
  table.Forget("rnic0");
  EXPECT_TRUE(table.counters().empty());
  EXPECT_TRUE(table.neighbors().empty());
  EXPECT_FALSE(table.NextExpiry());
}

TEST(SameFarEndTest, ChassisAndPortBothCount) {
  auto parse = [](const LldpFrameBuilder& b) { return ParseLldpFrame(b.Build()).value(); };
  EXPECT_TRUE(SameFarEnd(parse(LldpFrameBuilder::Leaf(7, 3)),
                         parse(LldpFrameBuilder::Leaf(7, 3).SystemName("renamed"))));
  EXPECT_FALSE(
      SameFarEnd(parse(LldpFrameBuilder::Leaf(7, 3)), parse(LldpFrameBuilder::Leaf(7, 4))));
  EXPECT_FALSE(
      SameFarEnd(parse(LldpFrameBuilder::Leaf(7, 3)), parse(LldpFrameBuilder::Leaf(8, 3))));
}

}  // namespace
}  // namespace rocewatch
