#include "gid_drift/gid_drift_detector.h"

#include <gtest/gtest.h>

#include "support/simulated_gid_table.h"
#include "support/test_times.h"

namespace rocewatch {
namespace {

// One RNIC port with NCCL-style live QPs, observed by the detector.
class GidDriftScenarioTest : public ::testing::Test {
 protected:
  GidObservation Snapshot(double at) {
    return detector_.Observe({{"mlx5_0", 1, true, "eth0", port1_.Entries()}}, at);
  }
  uint64_t DriftEvents(const std::string& netdev, uint32_t port = 1) const {
    auto it = detector_.state().counters.find({"mlx5_0", port, netdev});
    return it == detector_.state().counters.end() ? 0 : it->second.events;
  }
  static std::vector<std::tuple<uint32_t, uint32_t, GidType>> Moves(const GidObservation& o) {
    std::vector<std::tuple<uint32_t, uint32_t, GidType>> out;
    for (const GidChange& c : o.changes)
      if (c.kind == GidChangeKind::kMoved) out.emplace_back(c.old_index, c.new_index, c.entry.type);
    return out;
  }

  SimulatedGidTable port1_{1, "eth0", "02:00:00:00:00:01"};
  GidDriftDetector detector_;
};

TEST_F(GidDriftScenarioTest, NetworkManagerFlapWithLiveQpsMovesEachGidOnce) {
  port1_.AddAddress("10.0.0.1/24");  // 2 (v1), 3 (v2)
  port1_.TakeReference(2);
  port1_.TakeReference(3);
  Snapshot(kT0);

  port1_.RemoveAddress("10.0.0.1");  // carrier down: NetworkManager removes the address
  GidObservation down = Snapshot(kT0 + 1);
  EXPECT_EQ(down.drifts(), 0u);
  EXPECT_EQ(down.changes.size(), 2u) << "two entries removed";

  port1_.AddAddress("10.0.0.1/24");  // carrier back: re-added above the held slots
  GidObservation up = Snapshot(kT0 + 5);
  EXPECT_EQ(Moves(up), (std::vector<std::tuple<uint32_t, uint32_t, GidType>>{
                           {2, 4, GidType::kRoceV1}, {3, 5, GidType::kRoceV2}}));
  EXPECT_EQ(DriftEvents("eth0"), 2u);
  EXPECT_EQ(detector_.state().counters.at({"mlx5_0", 1, "eth0"}).last_drift_unix_seconds, kT0 + 5);
  EXPECT_EQ(up.holes, (std::vector<GidHole>{{"mlx5_0", 1, 2}, {"mlx5_0", 1, 3}}));
  // The last move names the RoCE v2 one (what NCCL uses), whatever the order of the moves.
  EXPECT_EQ(detector_.state().counters.at({"mlx5_0", 1, "eth0"}).last_move,
            (GidLastMove{"0000:0000:0000:0000:0000:ffff:0a00:0001", GidType::kRoceV2, 3, 5}));
}

TEST_F(GidDriftScenarioTest, AFlapFasterThanTheSnapshotsIsStillSeen) {
  port1_.AddAddress("10.0.0.1");
  port1_.TakeReference(3);  // NCCL uses the v2 entry only
  Snapshot(kT0);
  port1_.RemoveAddress("10.0.0.1");
  port1_.AddAddress("10.0.0.1");  // v1 takes the freed slot 2 again, v2 goes to 4
  EXPECT_EQ(Moves(Snapshot(kT0 + 1)),
            (std::vector<std::tuple<uint32_t, uint32_t, GidType>>{{3, 4, GidType::kRoceV2}}));
  EXPECT_EQ(DriftEvents("eth0"), 1u);
}

TEST_F(GidDriftScenarioTest, TheSameFlapWithoutReferencesIsNoDrift) {
  port1_.AddAddress("10.0.0.1");
  Snapshot(kT0);
  port1_.RemoveAddress("10.0.0.1");
  Snapshot(kT0 + 1);
  port1_.AddAddress("10.0.0.1");
  GidObservation up = Snapshot(kT0 + 2);
  EXPECT_EQ(up.drifts(), 0u);
  ASSERT_EQ(up.changes.size(), 2u);
  EXPECT_EQ(up.changes[0].kind, GidChangeKind::kAdded) << "the GID returned where it was";
  EXPECT_TRUE(up.holes.empty());
  EXPECT_TRUE(detector_.state().counters.empty());
}

TEST_F(GidDriftScenarioTest, IfupdownFlapChangesNothing) {
  port1_.AddAddress("10.0.0.1");
  port1_.TakeReference(3);
  Snapshot(kT0);
  // Carrier down and up: ifupdown keeps the address, the kernel keeps the GIDs.
  GidObservation after = Snapshot(kT0 + 3);
  EXPECT_TRUE(after.changes.empty());
  EXPECT_TRUE(after.holes.empty());
}

TEST_F(GidDriftScenarioTest, Ipv6GidsDriftToo) {
  port1_.AddAddress("10.0.0.1");
  port1_.AddAddress("2001:db8::1/64");  // 4, 5
  port1_.TakeReference(5);
  Snapshot(kT0);
  port1_.RemoveAddress("2001:db8::1");
  Snapshot(kT0 + 1);
  port1_.AddAddress("2001:db8::1");
  GidObservation up = Snapshot(kT0 + 2);
  EXPECT_EQ(Moves(up),
            (std::vector<std::tuple<uint32_t, uint32_t, GidType>>{{5, 6, GidType::kRoceV2}}));
  EXPECT_EQ(up.changes[1].entry.gid, "2001:0db8:0000:0000:0000:0000:0000:0001");
}

TEST_F(GidDriftScenarioTest, VlanGidsCountUnderTheirOwnNetdev) {
  port1_.AddAddress("10.0.0.1");              // eth0: 2, 3
  port1_.AddAddress("10.1.0.1", "eth0.100");  // VLAN upper: 4, 5
  port1_.TakeReference(5);
  Snapshot(kT0);
  port1_.RemoveAddress("10.1.0.1", "eth0.100");
  port1_.AddAddress("10.1.0.1", "eth0.100");
  EXPECT_EQ(Snapshot(kT0 + 1).drifts(), 1u);
  EXPECT_EQ(DriftEvents("eth0.100"), 1u);
  EXPECT_EQ(DriftEvents("eth0"), 0u);
}

TEST_F(GidDriftScenarioTest, SameAddressOnAnotherNetdevIsAnotherGid) {
  port1_.AddAddress("10.0.0.1");
  Snapshot(kT0);
  port1_.RemoveAddress("10.0.0.1");
  port1_.AddAddress("10.9.9.9");              // takes 2/3
  port1_.AddAddress("10.0.0.1", "eth0.100");  // 4/5: same value, other netdev
  EXPECT_EQ(Snapshot(kT0 + 1).drifts(), 0u);
}

TEST_F(GidDriftScenarioTest, MultiPortDevicesAreTrackedPerPort) {
  SimulatedGidTable port2(2, "eth1", "02:00:00:00:00:02");
  port1_.AddAddress("10.0.0.1");
  port2.AddAddress("10.0.1.1");
  port2.TakeReference(3);
  auto observe = [&](double at) {
    return detector_.Observe({{"mlx5_0", 1, true, "eth0", port1_.Entries()},
                              {"mlx5_0", 2, true, "eth1", port2.Entries()}},
                             at);
  };
  observe(kT0);
  port2.RemoveAddress("10.0.1.1");
  port2.AddAddress("10.0.1.1");
  GidObservation o = observe(kT0 + 1);
  ASSERT_EQ(o.drifts(), 1u);
  EXPECT_EQ(o.changes[0].entry.port, 2u);
  EXPECT_EQ(DriftEvents("eth1", 2), 1u);
  EXPECT_EQ(DriftEvents("eth0", 1), 0u);
}

TEST_F(GidDriftScenarioTest, APortMissingFromASnapshotKeepsItsBaseline) {
  port1_.AddAddress("10.0.0.1");
  port1_.TakeReference(3);
  Snapshot(kT0);
  detector_.Observe({}, kT0 + 1);  // the device's read failed
  port1_.RemoveAddress("10.0.0.1");
  port1_.AddAddress("10.0.0.1");
  EXPECT_EQ(Snapshot(kT0 + 2).drifts(), 1u);
}

TEST_F(GidDriftScenarioTest, TheFirstSightingIsABaselineNotADrift) {
  port1_.AddAddress("10.0.0.1");
  port1_.TakeReference(3);
  port1_.RemoveAddress("10.0.0.1");
  port1_.AddAddress("10.0.0.1");
  GidObservation first = Snapshot(kT0);
  EXPECT_EQ(first.drifts(), 0u);
  EXPECT_EQ(first.changes.size(), 4u) << "every entry is added";
  EXPECT_EQ(first.holes, (std::vector<GidHole>{{"mlx5_0", 1, 3}})) << "but the hole is visible";
}

TEST(GidDriftDetectorTest, DuplicateIdentitiesCountAtTheirLowestIndex) {
  const std::string gid = "0000:0000:0000:0000:0000:ffff:0a00:0001";
  KnownGidPort known;
  uint64_t order = 0;
  DiffGidTable("d", 1, {{1, 3, gid, GidType::kRoceV2, "e"}, {1, 7, gid, GidType::kRoceV2, "e"}},
               known, order);
  std::vector<GidChange> changes =
      DiffGidTable("d", 1, {{1, 7, gid, GidType::kRoceV2, "e"}, {1, 3, gid, GidType::kRoceV2, "e"}},
                   known, order);
  EXPECT_TRUE(changes.empty());
}

TEST(GidDriftDetectorTest, RemembersABoundedNumberOfDepartedGids) {
  KnownGidPort known;
  uint64_t order = 0;
  for (uint32_t i = 0; i < GidDriftDetector::kMaxDepartedPerPort + 10; ++i) {
    std::string gid =
        *GidOfAddress("10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256));
    DiffGidTable("d", 1, {{1, 2, gid, GidType::kRoceV2, "e"}}, known, order);
    DiffGidTable("d", 1, {}, known, order);
  }
  EXPECT_EQ(known.departed.size(), GidDriftDetector::kMaxDepartedPerPort);
  EXPECT_EQ(known.departed.count({*GidOfAddress("10.0.0.0"), GidType::kRoceV2, "e"}), 0u)
      << "the oldest went first";
}

struct HoleCase {
  const char* name;
  std::vector<GidEntry> entries;
  std::vector<uint32_t> holes;
};

TEST(GidDriftDetectorTest, HolesAreEmptySlotsBelowANonDefaultGid) {
  const std::string ll = "fe80:0000:0000:0000:0000:00ff:fe00:0001";
  const std::string v4 = "0000:0000:0000:0000:0000:ffff:0a00:0001";
  const HoleCase cases[] = {
      {"empty table", {}, {}},
      {"defaults only", {{1, 0, ll, GidType::kRoceV1, "e"}, {1, 1, ll, GidType::kRoceV2, "e"}}, {}},
      {"link-local above a gap is no evidence",
       {{1, 0, ll, GidType::kRoceV1, "e"}, {1, 5, ll, GidType::kRoceV2, "e"}},
       {}},
      {"packed",
       {{1, 0, ll, GidType::kRoceV1, "e"},
        {1, 1, ll, GidType::kRoceV2, "e"},
        {1, 2, v4, GidType::kRoceV1, "e"}},
       {}},
      {"moved up",
       {{1, 0, ll, GidType::kRoceV1, "e"},
        {1, 1, ll, GidType::kRoceV2, "e"},
        {1, 4, v4, GidType::kRoceV2, "e"}},
       {2, 3}},
      {"no defaults", {{1, 2, v4, GidType::kRoceV2, "e"}}, {0, 1}},
  };
  for (const HoleCase& c : cases) EXPECT_EQ(FindGidHoles(c.entries), c.holes) << c.name;
}

struct MismatchCase {
  const char* name;
  GidPortTable table;
  bool evaluated;
  bool mismatch;
  std::string netdev;
};

TEST(GidDriftDetectorTest, IndexMismatchForTheExpectedIndex) {
  const std::string v4 = "0000:0000:0000:0000:0000:ffff:0a00:0001";
  const std::string v6 = "2001:0db8:0000:0000:0000:0000:0000:0001";
  const MismatchCase cases[] = {
      {"v2 IPv4 at 3",
       {"d", 1, true, "eth0", {{1, 3, v4, GidType::kRoceV2, "eth0"}}},
       true,
       false,
       "eth0"},
      {"v2 IPv4 of a VLAN at 3",
       {"d", 1, true, "eth0", {{1, 3, v4, GidType::kRoceV2, "eth0.5"}}},
       true,
       false,
       "eth0.5"},
      {"moved to 5",
       {"d", 1, true, "eth0", {{1, 5, v4, GidType::kRoceV2, "eth0"}}},
       true,
       true,
       "eth0"},
      {"v1 at 3",
       {"d", 1, true, "eth0", {{1, 3, v4, GidType::kRoceV1, "eth0"}}},
       true,
       true,
       "eth0"},
      {"IPv6 at 3",
       {"d", 1, true, "eth0", {{1, 3, v6, GidType::kRoceV2, "eth0"}}},
       true,
       true,
       "eth0"},
      {"empty, netdev from a GID",
       {"d", 1, true, "", {{1, 5, v4, GidType::kRoceV2, "eth0"}}},
       true,
       true,
       "eth0"},
      {"empty table", {"d", 1, true, "eth0", {}}, true, true, "eth0"},
      {"InfiniBand port", {"d", 1, false, "", {}}, false, false, ""},
  };
  for (const MismatchCase& c : cases) {
    std::optional<GidIndexMismatch> m = EvaluateIndexMismatch(c.table, 3);
    ASSERT_EQ(m.has_value(), c.evaluated) << c.name;
    if (!m) continue;
    EXPECT_EQ(m->mismatch, c.mismatch) << c.name;
    EXPECT_EQ(m->netdev, c.netdev) << c.name;
  }
}

}  // namespace
}  // namespace rocewatch
