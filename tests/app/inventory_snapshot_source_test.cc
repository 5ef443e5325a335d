#include "daemon/inventory_snapshot_source.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "support/write_in_place.h"
#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

constexpr size_t kBudget = 4096;  // kept descriptors

// A GidTableSource that counts reads and can pretend to be verbs.
class CountingGidSource final : public GidTableSource {
 public:
  CountingGidSource(GidTableSource& real, const char* name) : real_(real), name_(name) {}
  const char* name() const override { return name_; }
  StatusOr<GidTableRead> ReadDevice(const std::string& device) override {
    ++reads;
    return real_.ReadDevice(device);
  }
  int reads = 0;

 private:
  GidTableSource& real_;
  const char* name_;
};

class InventorySnapshotSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sysfs_ = dir_.path() + "/sys";
    ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(2, 16)).ok());
  }
  // Moves rail 0's IPv4 GIDs from 2/3 to 4/5, as the kernel does after a flap with held references.
  void MoveRailZeroGids() {
    std::vector<FixtureDevice> node = RailNode(2, 16);
    for (FixtureGid& gid : node[0].ports[0].gids)
      if (gid.index >= 2) gid.index += 2;
    ASSERT_TRUE(WriteSysfsFixture(sysfs_, node).ok());
  }
  static uint32_t IndexOfFirstIpGid(const NodeSnapshot& s) {
    return s.devices.at(0).ports.at(0).gids.at(2).index;
  }

  TempDir dir_;
  std::string sysfs_;
  PosixFileSystem fs_;
  FakeClock clock_;
};

TEST_F(InventorySnapshotSourceTest, SysfsGidTablesAreReadAfterEventsAndOnTheBackstopOnly) {
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "sysfs");
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_, {seconds(30), seconds(10)});

  ASSERT_TRUE(source.Take().ok());  // first snapshot: read
  EXPECT_EQ(gids.reads, 2);
  MoveRailZeroGids();
  clock_.Advance(seconds(1));
  auto carried = source.Take();  // periodic, no event: tables carried forward
  EXPECT_EQ(gids.reads, 2);
  EXPECT_EQ(IndexOfFirstIpGid(*carried), 2u);

  source.ExpectChange();  // an address event
  clock_.Advance(seconds(1));
  auto fresh = source.Take();
  EXPECT_EQ(gids.reads, 4);
  EXPECT_EQ(IndexOfFirstIpGid(*fresh), 4u);
  clock_.Advance(seconds(5));
  ASSERT_TRUE(source.Take().ok());  // within the hot window: read again
  EXPECT_EQ(gids.reads, 6);
  clock_.Advance(seconds(10));
  ASSERT_TRUE(source.Take().ok());  // hot window over
  EXPECT_EQ(gids.reads, 6);
  clock_.Advance(seconds(30));
  ASSERT_TRUE(source.Take().ok());  // backstop
  EXPECT_EQ(gids.reads, 8);
  EXPECT_EQ(source.gid_reads(), 4u);
  EXPECT_EQ(source.gid_carries(), 2u);
}

// Through sysfs with kept layouts: the event's read and the hot window read every slot, a quiet
// backstop read the used part of each table only, and a whole read comes at least every
// `whole_table` (counted per port: two rails of one port each).
TEST_F(InventorySnapshotSourceTest,
       BackstopReadsAreBoundedWholeReadsAfterEventsAndEveryFiveMinutes) {
  ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(2, 64)).ok());
  SysfsGidTableSource gids(fs_, sysfs_, kBudget);
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_,
                                 {seconds(30), seconds(10), std::chrono::minutes(5)});
  const auto& stats = gids.read_stats();
  ASSERT_TRUE(source.Take().ok());  // t=0: first read, whole
  EXPECT_EQ(stats.whole_port_reads, 2u);
  source.ExpectChange();
  clock_.Advance(seconds(1));
  ASSERT_TRUE(source.Take().ok());  // t=1: the event's read
  clock_.Advance(seconds(5));
  ASSERT_TRUE(source.Take().ok());  // t=6: hot window
  EXPECT_EQ(stats.whole_port_reads, 6u);
  EXPECT_EQ(stats.bounded_port_reads, 0u);
  clock_.Advance(seconds(10));
  ASSERT_TRUE(source.Take().ok());                    // t=16: carried
  for (int backstop = 0; backstop < 9; ++backstop) {  // t=46..286: quiet backstops, bounded
    clock_.Advance(seconds(30));
    ASSERT_TRUE(source.Take().ok());
  }
  EXPECT_EQ(stats.whole_port_reads, 6u);
  EXPECT_EQ(stats.bounded_port_reads, 18u);
  clock_.Advance(seconds(30));
  ASSERT_TRUE(source.Take().ok());  // t=316: 5 min since the last whole read (t=6)
  EXPECT_EQ(stats.whole_port_reads, 8u);
  EXPECT_EQ(source.whole_table_requests(), 3u);  // t=1, t=6, t=316
  clock_.Advance(seconds(30));
  ASSERT_TRUE(source.Take().ok());
  EXPECT_EQ(stats.bounded_port_reads, 20u);
}

TEST_F(InventorySnapshotSourceTest, TheBackstopAloneFindsAMoveNoEventAnnounced) {
  SysfsGidTableSource gids(fs_, sysfs_);
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_, {seconds(30), seconds(10)});
  ASSERT_TRUE(source.Take().ok());
  MoveRailZeroGids();
  clock_.Advance(seconds(29));
  EXPECT_EQ(IndexOfFirstIpGid(*source.Take()), 2u);
  clock_.Advance(seconds(1));
  EXPECT_EQ(IndexOfFirstIpGid(*source.Take()), 4u);
}

TEST_F(InventorySnapshotSourceTest, ANewDeviceIsListedAtTheNextEventOrOnTheListingBackstop) {
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "sysfs");
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_, {seconds(30), seconds(10)},
                                 {seconds(10), seconds(30)});
  ASSERT_TRUE(source.Take().ok());
  const uint64_t listings = poller.listings();
  ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(3, 16)).ok());
  clock_.Advance(seconds(1));
  EXPECT_EQ(source.Take()->devices.size(), 2u);  // no event: nothing is listed
  EXPECT_EQ(poller.listings(), listings);

  source.ExpectChange();  // the new device's netdev appears
  clock_.Advance(seconds(1));
  auto snapshot = source.Take();
  ASSERT_EQ(snapshot->devices.size(), 3u);
  EXPECT_EQ(snapshot->devices[2].ports[0].gids.size(), 4u);

  ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(4, 16)).ok());
  clock_.Advance(seconds(29));
  EXPECT_EQ(source.Take()->devices.size(), 3u);
  clock_.Advance(seconds(1));
  snapshot = source.Take();  // the listing backstop, no event
  ASSERT_EQ(snapshot->devices.size(), 4u);
  EXPECT_EQ(snapshot->devices[3].ports[0].gids.size(), 4u);  // a port without a table: read
}

// Rewrites one counter of rail 0 in place (as the kernel's value changes behind the same file).
void SetCounter(const std::string& sysfs, const std::string& dir, const std::string& name,
                uint64_t value) {
  ASSERT_TRUE(WriteFileInPlace(sysfs + "/class/infiniband/mlx5_0/ports/1/" + dir + "/" + name,
                               std::to_string(value) + "\n")
                  .ok());
}

TEST_F(InventorySnapshotSourceTest, ByteCountersEverySnapshotTheRestEverySlowIntervalOrEvent) {
  SysfsGidTableSource gids(fs_, sysfs_);
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_, {seconds(30), seconds(10)},
                                 {seconds(10), seconds(30)});
  ASSERT_TRUE(source.Take().ok());
  auto counters = [](const NodeSnapshot& s) { return s.devices.at(0).ports.at(0).counters; };

  SetCounter(sysfs_, "counters", "port_xmit_data", 1000);
  SetCounter(sysfs_, "counters", "symbol_error", 7);
  SetCounter(sysfs_, "hw_counters", "out_of_sequence", 9);
  clock_.Advance(seconds(1));
  PortCounters fast = counters(*source.Take());
  EXPECT_EQ(fast.transmit_bytes, 4000u);            // fresh through the kept descriptor
  EXPECT_NE(fast.counters.at("symbol_error"), 7u);  // carried forward
  EXPECT_NE(fast.hw_counters.at("out_of_sequence"), 9u);

  clock_.Advance(seconds(9));
  PortCounters slow = counters(*source.Take());
  EXPECT_EQ(slow.counters.at("symbol_error"), 7u);
  EXPECT_EQ(slow.hw_counters.at("out_of_sequence"), 9u);

  SetCounter(sysfs_, "counters", "symbol_error", 8);
  source.ExpectChange();
  clock_.Advance(seconds(1));
  EXPECT_EQ(counters(*source.Take()).counters.at("symbol_error"), 8u);  // an event reads it all
  EXPECT_GT(poller.reader().open_count(), 100u);
}

TEST_F(InventorySnapshotSourceTest, VerbsTablesAreReadOnEverySnapshot) {
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "verbs");
  SysfsPoller poller(fs_, sysfs_, &gids, kBudget);
  InventorySnapshotSource source(poller, gids, clock_, {seconds(30), seconds(10)});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(source.Take().ok());
    clock_.Advance(seconds(1));
  }
  EXPECT_EQ(gids.reads, 6);
}

}  // namespace
}  // namespace rocewatch
