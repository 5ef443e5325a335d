// The sysfs GID reader with kept layouts reads the used part of each table only: every slot up to
// the port's high-water mark, then until kGidScanMargin consecutive zero GIDs. These tests drive a
// simulated kernel table (lowest free slot, references, pending delete) written in place into a
// fixture tree, and compare each bounded read with a whole read of the same tree.
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <functional>
#include <random>

#include "support/fault_injecting_file_system.h"
#include "support/simulated_gid_table.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {
namespace {

constexpr size_t kKeptDescriptorBudget = 4096;  // kept descriptors: the daemon's mode

std::string Address(int n) {
  return "10.1." + std::to_string(n / 200) + "." + std::to_string(n % 200 + 1);
}

class SysfsGidTableBoundedReadTest : public ::testing::Test {
 protected:
  void Publish() {
    FixtureDevice device;
    device.name = "mlx5_0";
    device.ports = {table_.ToFixturePort()};
    ASSERT_TRUE(WriteSysfsFixture(root_, {device}).ok());
  }
  // Publishes the table, reads it through the bounded reader and checks the result against a
  // whole read of the same tree and against the simulated table itself.
  GidTableRead PublishAndRead() {
    Publish();
    auto bounded = source_.ReadDevice("mlx5_0");
    EXPECT_TRUE(bounded.ok()) << bounded.status().ToString();
    auto whole = whole_reader_.ReadDevice("mlx5_0");
    EXPECT_TRUE(whole.ok()) << whole.status().ToString();
    if (!bounded.ok() || !whole.ok()) return {};
    EXPECT_EQ(bounded->entries, whole->entries);
    EXPECT_EQ(bounded->entries, table_.Entries());
    return *bounded;
  }
  uint64_t SlotsReadBy(const std::function<void()>& action) {
    const uint64_t before = source_.read_stats().slots_read;
    action();
    return source_.read_stats().slots_read - before;
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
  SimulatedGidTable table_{1, "ens1f0np0", "0c:42:a1:5e:00:00", 255};
  SysfsGidTableSource source_{fs_, root_, kKeptDescriptorBudget};
  SysfsGidTableSource whole_reader_{posix_, root_};  // max_open 0: every slot, every time
};

TEST_F(SysfsGidTableBoundedReadTest, TheFirstReadIsWholeThenOnlyTheUsedPartPlusTheMargin) {
  table_.AddAddress("10.0.0.2");  // 2/3
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 255u);
  EXPECT_EQ(source_.read_stats().whole_port_reads, 1u);
  // Slots 0..3 (the high-water mark is 3), then 4..19: 16 zero GIDs.
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 4u + kGidScanMargin);
  EXPECT_EQ(source_.read_stats().bounded_port_reads, 1u);
}

TEST_F(SysfsGidTableBoundedReadTest, AnAddressAddedAtTheLowestFreeSlotIsRead) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  EXPECT_EQ(table_.AddAddress("10.0.0.3"), (std::vector<uint32_t>{4, 5}));
  GidTableRead read = PublishAndRead();
  ASSERT_EQ(read.entries.size(), 6u);
  EXPECT_EQ(read.entries[5].index, 5u);
  EXPECT_EQ(source_.read_stats().bounded_port_reads, 1u);
}

TEST_F(SysfsGidTableBoundedReadTest, AHoleBelowAReAddedGidIsReadAndFilledAgain) {
  table_.AddAddress("10.0.0.2");  // 2/3
  PublishAndRead();
  // A job's QPs hold 2/3; the address goes and comes back: pending delete at 2/3, new at 4/5.
  table_.TakeReference(2);
  table_.TakeReference(3);
  table_.RemoveAddress("10.0.0.2");
  EXPECT_EQ(table_.AddAddress("10.0.0.2"), (std::vector<uint32_t>{4, 5}));
  GidTableRead moved = PublishAndRead();
  ASSERT_EQ(moved.entries.size(), 4u);
  EXPECT_EQ(moved.entries[2].index, 4u);
  // The job exits: 2/3 are freed while 4/5 are used; the next address fills the hole.
  table_.ReleaseAllReferences();
  PublishAndRead();
  EXPECT_EQ(table_.AddAddress("10.0.0.3"), (std::vector<uint32_t>{2, 3}));
  GidTableRead filled = PublishAndRead();
  ASSERT_EQ(filled.entries.size(), 6u);
  EXPECT_EQ(filled.entries[2].index, 2u);
  EXPECT_EQ(source_.read_stats().whole_port_reads, 1u);  // the first read only
}

TEST_F(SysfsGidTableBoundedReadTest, SeveralAddsBetweenTwoReadsExtendPastTheMargin) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  for (int n = 0; n < 20; ++n) table_.AddAddress(Address(n));  // 40 entries: slots 4..43
  GidTableRead read = PublishAndRead();
  ASSERT_EQ(read.entries.size(), 44u);
  EXPECT_EQ(read.entries.back().index, 43u);
  // The mark is now 43: the next read covers 0..43 and 16 more.
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 44u + kGidScanMargin);
}

TEST_F(SysfsGidTableBoundedReadTest, RemovingTheHighestEntryKeepsItsSlotsInTheReadPart) {
  table_.AddAddress("10.0.0.2");  // 2/3
  table_.AddAddress("10.0.0.3");  // 4/5
  PublishAndRead();
  table_.RemoveAddress("10.0.0.3");
  GidTableRead read = PublishAndRead();
  ASSERT_EQ(read.entries.size(), 4u);
  EXPECT_EQ(read.entries.back().index, 3u);
  // The mark stays at 5 (a pending-delete slot reads as zero too): 0..5 and the margin.
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 6u + kGidScanMargin);
  EXPECT_EQ(table_.AddAddress("10.0.0.4"), (std::vector<uint32_t>{4, 5}));
  EXPECT_EQ(PublishAndRead().entries.size(), 6u);
}

TEST_F(SysfsGidTableBoundedReadTest, ADeviceThatReappearsIsReadWhole) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  PublishAndRead();
  std::filesystem::remove_all(root_ + "/class/infiniband/mlx5_0");
  auto gone = source_.ReadDevice("mlx5_0");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), StatusCode::kNotFound);
  // The new device's table has an entry no bounded read of the old one would reach (a slot the
  // kernel would not pick: it proves the read covers every slot).
  FixtureDevice device;
  device.name = "mlx5_0";
  device.ports = {table_.ToFixturePort()};
  device.ports[0].gids.push_back({200, "0000:0000:0000:0000:0000:ffff:0a00:00c8", "RoCE v2", ""});
  ASSERT_TRUE(WriteSysfsFixture(root_, {device}).ok());
  const uint64_t whole_before = source_.read_stats().whole_port_reads;
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(source_.read_stats().whole_port_reads, whole_before + 1);
  ASSERT_EQ(read->entries.size(), 5u);
  EXPECT_EQ(read->entries.back().index, 200u);
}

TEST_F(SysfsGidTableBoundedReadTest, AReopenedDescriptorMakesTheReadWhole) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  // A device created again under the same name between two reads: on sysfs its kept descriptors
  // fail (ENODEV, ESTALE) and are opened again. Injected here (ESTALE, so slot 0 keeps failing
  // without the layout being listed again).
  FixtureDevice device;
  device.name = "mlx5_0";
  device.ports = {table_.ToFixturePort()};
  device.ports[0].gids.push_back({200, "0000:0000:0000:0000:0000:ffff:0a00:00c8", "RoCE v2", ""});
  ASSERT_TRUE(WriteSysfsFixture(root_, {device}).ok());
  fs_.FailPath(root_ + "/class/infiniband/mlx5_0/ports/1/gids/0", ESTALE);
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(source_.read_stats().whole_port_reads, 2u);
  ASSERT_FALSE(read->entries.empty());
  EXPECT_EQ(read->entries.back().index, 200u);
}

TEST_F(SysfsGidTableBoundedReadTest, ReadWholeTablesNextReadsEverySlotOnce) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 4u + kGidScanMargin);
  source_.ReadWholeTablesNext();
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 255u);
  EXPECT_EQ(SlotsReadBy([&] { PublishAndRead(); }), 4u + kGidScanMargin);
}

// What the bounded read cannot see, and what covers it: entries added, taken by a QP and deleted
// again between two reads, never seen, leave pending-delete slots above the mark that read as
// zero; once kGidScanMargin of them lie below a new entry, only a whole read finds it. (The
// daemon reads whole tables after every event and at least every 5 minutes.)
TEST_F(SysfsGidTableBoundedReadTest, UnseenPendingSlotsBeyondTheMarginNeedTheWholeRead) {
  table_.AddAddress("10.0.0.2");
  PublishAndRead();
  for (uint32_t n = 0; n < kGidScanMargin / 2; ++n) {
    std::vector<uint32_t> slots = table_.AddAddress(Address(static_cast<int>(n)));
    for (uint32_t slot : slots) table_.TakeReference(slot);
    table_.RemoveAddress(Address(static_cast<int>(n)));
  }
  EXPECT_EQ(table_.AddAddress("10.0.9.9"), (std::vector<uint32_t>{20, 21}));
  Publish();
  auto bounded = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(bounded.ok());
  EXPECT_EQ(bounded->entries.size(), 4u);  // 20/21 missed: the documented limit
  source_.ReadWholeTablesNext();
  auto whole = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->entries, table_.Entries());
  // Seen once, 20/21 raise the mark: bounded reads find them from now on.
  EXPECT_EQ(PublishAndRead().entries.size(), 6u);
}

// The rule itself: random kernel activity (adds at the lowest free slot, removals, references,
// pending deletes, bursts of adds), a few changes between reads, and every bounded read must
// equal a whole read. Fails if the bounded read ever skips a populated slot. References are only
// taken on entries a read has seen (the limit above is the other case).
TEST_F(SysfsGidTableBoundedReadTest, EveryBoundedReadEqualsAWholeReadUnderRandomChurn) {
  std::mt19937 random(20261201);
  auto chance = [&](int percent) {
    return std::uniform_int_distribution<int>(0, 99)(random) < percent;
  };
  constexpr int kAddresses = 60;
  std::vector<bool> present(kAddresses, false);
  std::vector<uint32_t> seen;  // valid slots at the last read
  PublishAndRead();
  for (int round = 0; round < 150; ++round) {
    const int changes = chance(10) ? 12 : std::uniform_int_distribution<int>(0, 3)(random);
    for (int c = 0; c < changes; ++c) {
      const int n = std::uniform_int_distribution<int>(0, kAddresses - 1)(random);
      if (!present[n]) {
        table_.AddAddress(Address(n));
        present[n] = true;
      } else if (chance(60)) {
        table_.RemoveAddress(Address(n));
        present[n] = false;
      }
    }
    if (!seen.empty() && chance(30)) {
      const uint32_t slot = seen[std::uniform_int_distribution<size_t>(0, seen.size() - 1)(random)];
      if (table_.slots()[slot].state == SimulatedGidTable::SlotState::kValid)
        table_.TakeReference(slot);
    }
    if (chance(15)) table_.ReleaseAllReferences();
    GidTableRead read = PublishAndRead();
    if (HasFailure()) FAIL() << "round " << round;
    seen.clear();
    for (const GidEntry& entry : read.entries)
      if (entry.index >= 2) seen.push_back(entry.index);
  }
  EXPECT_GT(source_.read_stats().bounded_port_reads, 100u);
}

}  // namespace
}  // namespace rocewatch
