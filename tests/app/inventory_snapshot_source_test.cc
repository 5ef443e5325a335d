#include "app/inventory_snapshot_source.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;

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
  SysfsInventory inventory(fs_, sysfs_);
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "sysfs");
  InventorySnapshotSource source(inventory, gids, clock_, {seconds(30), seconds(10)});

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

TEST_F(InventorySnapshotSourceTest, TheBackstopAloneFindsAMoveNoEventAnnounced) {
  SysfsInventory inventory(fs_, sysfs_);
  SysfsGidTableSource gids(fs_, sysfs_);
  InventorySnapshotSource source(inventory, gids, clock_, {seconds(30), seconds(10)});
  ASSERT_TRUE(source.Take().ok());
  MoveRailZeroGids();
  clock_.Advance(seconds(29));
  EXPECT_EQ(IndexOfFirstIpGid(*source.Take()), 2u);
  clock_.Advance(seconds(1));
  EXPECT_EQ(IndexOfFirstIpGid(*source.Take()), 4u);
}

TEST_F(InventorySnapshotSourceTest, ANewDeviceIsReadAtOnce) {
  SysfsInventory inventory(fs_, sysfs_);
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "sysfs");
  InventorySnapshotSource source(inventory, gids, clock_, {seconds(30), seconds(10)});
  ASSERT_TRUE(source.Take().ok());
  ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(3, 16)).ok());
  clock_.Advance(seconds(1));
  auto snapshot = source.Take();
  ASSERT_EQ(snapshot->devices.size(), 3u);
  EXPECT_EQ(snapshot->devices[2].ports[0].gids.size(), 4u);
}

TEST_F(InventorySnapshotSourceTest, VerbsTablesAreReadOnEverySnapshot) {
  SysfsInventory inventory(fs_, sysfs_);
  SysfsGidTableSource sysfs(fs_, sysfs_);
  CountingGidSource gids(sysfs, "verbs");
  InventorySnapshotSource source(inventory, gids, clock_, {seconds(30), seconds(10)});
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(source.Take().ok());
    clock_.Advance(seconds(1));
  }
  EXPECT_EQ(gids.reads, 6);
}

}  // namespace
}  // namespace rocewatch
