// The daemon's stateful sysfs reader: what each kind of poll reads, what it carries forward, and
// how a device that goes away is handled. (What a complete pass reads is specified by the
// SysfsInventory tests, which run through the same code.)

#include "sysfs/sysfs_poller.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>

#include "support/fault_injecting_file_system.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "support/write_in_place.h"
#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {
namespace {

constexpr uint32_t kSlots = 16;

class SysfsPollerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(WriteSysfsFixture(root_, RailNode(2, kSlots)).ok()); }
  std::string PortDir(int rail) const {
    return root_ + "/class/infiniband/mlx5_" + std::to_string(rail) + "/ports/1";
  }
  void Set(const std::string& path, const std::string& value) {
    ASSERT_TRUE(WriteFileInPlace(path, value + "\n").ok());
  }
  // Polls once and returns the files read by it.
  std::vector<std::string> PollReads(const PollScope& scope, NodeSnapshot* out = nullptr) {
    fs_.ClearFilesRead();
    auto snapshot = poller_.Poll(scope);
    EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    if (out != nullptr && snapshot.ok()) *out = std::move(*snapshot);
    return fs_.files_read();
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
  SysfsGidTableSource gids_{fs_, root_, /*max_open=*/1024};
  SysfsPoller poller_{fs_, root_, &gids_, /*max_open=*/1024};
};

TEST_F(SysfsPollerTest, TheOneSecondPollReadsTheByteCountersAndNothingElse) {
  ASSERT_GT(PollReads({}).size(), 100u);  // the first poll lists and reads everything
  const uint64_t listings = poller_.listings();
  std::vector<std::string> reads = PollReads({});
  EXPECT_EQ(reads,
            (std::vector<std::string>{
                PortDir(0) + "/counters/port_xmit_data", PortDir(0) + "/counters/port_rcv_data",
                PortDir(1) + "/counters/port_xmit_data", PortDir(1) + "/counters/port_rcv_data"}));
  EXPECT_EQ(poller_.listings(), listings);
}

TEST_F(SysfsPollerTest, WhatIsNotReadIsCarriedForwardAndWhatIsReadIsFresh) {
  NodeSnapshot first, second;
  PollReads({}, &first);
  Set(PortDir(0) + "/counters/port_rcv_data", "250");
  Set(PortDir(0) + "/state", "1: DOWN");
  Set(PortDir(0) + "/hw_counters/out_of_sequence", "77");
  PollReads({}, &second);
  const Port& port = second.devices.at(0).ports.at(0);
  EXPECT_EQ(port.counters.receive_bytes, 1000u);
  EXPECT_EQ(port.state, "ACTIVE");  // carried: read on the slow cadence
  EXPECT_EQ(port.counters.hw_counters, first.devices.at(0).ports.at(0).counters.hw_counters);
  EXPECT_EQ(port.gids, first.devices.at(0).ports.at(0).gids);
  EXPECT_EQ(port.netdevs, first.devices.at(0).ports.at(0).netdevs);

  PollReads({.everything = true}, &second);
  EXPECT_EQ(second.devices.at(0).ports.at(0).state, "DOWN");
  EXPECT_EQ(second.devices.at(0).ports.at(0).counters.hw_counters.at("out_of_sequence"), 77u);
}

TEST_F(SysfsPollerTest, GidTablesAreReadOnlyWhenAskedAndListingsOnlyOnAListingPoll) {
  PollReads({});
  auto gid_reads = [](const std::vector<std::string>& reads) {
    size_t n = 0;
    for (const std::string& path : reads) n += path.find("/gids/") != std::string::npos;
    return n;
  };
  EXPECT_EQ(gid_reads(PollReads({.everything = true})), 0u);
  EXPECT_EQ(gid_reads(PollReads({.gids = true})), 2 * kSlots);
  const uint64_t listings = poller_.listings();
  PollReads({.list = true});
  EXPECT_GT(poller_.listings(), listings);
}

TEST_F(SysfsPollerTest, ADeviceThatIsGoneIsLeftOutAndTheLayoutListedAgain) {
  PollReads({});
  fs_.FailPrefix(root_ + "/class/infiniband/mlx5_1", ENOENT);  // the kernel: ENODEV, then ENOENT
  NodeSnapshot snapshot;
  PollReads({}, &snapshot);
  ASSERT_EQ(snapshot.devices.size(), 1u);
  EXPECT_EQ(snapshot.devices[0].name, "mlx5_0");
  EXPECT_FALSE(poller_.has_layout());
  fs_.ClearFailures();
  PollReads({}, &snapshot);  // listed again: back, complete
  ASSERT_EQ(snapshot.devices.size(), 2u);
  EXPECT_EQ(snapshot.devices[1].ports.at(0).gids.size(), 4u);
}

TEST_F(SysfsPollerTest, AFailedReadIsCountedInThatPollOnly) {
  PollReads({});
  fs_.FailPath(PortDir(1) + "/counters/port_xmit_data", EIO);
  NodeSnapshot snapshot;
  PollReads({}, &snapshot);
  EXPECT_EQ(snapshot.read_errors.at("sysfs"), 1u);
  EXPECT_FALSE(snapshot.devices.at(1).ports.at(0).counters.transmit_bytes.has_value());
  fs_.ClearFailures();
  PollReads({}, &snapshot);
  EXPECT_EQ(snapshot.read_errors.at("sysfs"), 0u);
  EXPECT_TRUE(snapshot.devices.at(1).ports.at(0).counters.transmit_bytes.has_value());
}

// rdma_rxe (soft-RoCE) has no hca_type file: an attribute the driver does not provide is not a
// failed read (diagnose called that read_failed on a healthy soft-RoCE node).
TEST_F(SysfsPollerTest, ADeviceAttributeTheDriverLacksIsAbsentNotUnreadable) {
  ASSERT_EQ(std::remove((root_ + "/class/infiniband/mlx5_1/hca_type").c_str()), 0);
  NodeSnapshot snapshot;
  PollReads({.list = true, .everything = true}, &snapshot);
  EXPECT_EQ(snapshot.read_errors.at("sysfs"), 0u);
  EXPECT_TRUE(snapshot.read_failures.empty());
  EXPECT_FALSE(snapshot.devices.at(1).AttributeUnreadable("hca_type"));
  EXPECT_EQ(snapshot.devices.at(1).hca_type, "");
  fs_.FailPath(root_ + "/class/infiniband/mlx5_0/hca_type", EIO);
  PollReads({.list = true, .everything = true}, &snapshot);
  EXPECT_TRUE(snapshot.devices.at(0).AttributeUnreadable("hca_type"));  // a real failure still is
}

TEST_F(SysfsPollerTest, AFailedReadIsNamedAndTheCounterIsUnknownUntilItReadsAgain) {
  PollReads({});
  fs_.FailPath(PortDir(1) + "/counters/port_xmit_data", EIO);
  fs_.FailPath(PortDir(1) + "/hw_counters/out_of_sequence", EACCES);
  NodeSnapshot snapshot;
  PollReads({.everything = true}, &snapshot);
  std::vector<ReadFailure> want = {{"sysfs", PortDir(1) + "/counters/port_xmit_data", EIO},
                                   {"sysfs", PortDir(1) + "/hw_counters/out_of_sequence", EACCES}};
  EXPECT_EQ(snapshot.read_failures, want);
  std::vector<std::string> unknown = {"counters/port_xmit_data", "hw_counters/out_of_sequence"};
  EXPECT_EQ(snapshot.devices.at(1).ports.at(0).counters.unreadable, unknown);
  PollReads({}, &snapshot);  // the data counters only: hw_counters/ stays unknown
  EXPECT_EQ(snapshot.devices.at(1).ports.at(0).counters.unreadable, unknown);
  fs_.ClearFailures();
  PollReads({}, &snapshot);
  EXPECT_EQ(snapshot.devices.at(1).ports.at(0).counters.unreadable,
            std::vector<std::string>{"hw_counters/out_of_sequence"});
  EXPECT_TRUE(snapshot.read_failures.empty());
  PollReads({.everything = true}, &snapshot);
  EXPECT_TRUE(snapshot.devices.at(1).ports.at(0).counters.unreadable.empty());
}

TEST_F(SysfsPollerTest, AnUnreadableGidSlotIsUnknownAndCarriedForwardWithItsTable) {
  PollReads({});
  fs_.FailPath(PortDir(0) + "/gids/3", EIO);
  NodeSnapshot snapshot;
  PollReads({.gids = true}, &snapshot);
  const Port& port = snapshot.devices.at(0).ports.at(0);
  EXPECT_EQ(port.unreadable_gid_slots, std::vector<uint32_t>{3});
  EXPECT_FALSE(port.GidTableKnown());
  EXPECT_TRUE(port.GidSlotUnreadable(3));
  EXPECT_FALSE(port.GidSlotUnreadable(4));
  ASSERT_EQ(snapshot.read_failures.size(), 1u);
  EXPECT_EQ(snapshot.read_failures[0].path, PortDir(0) + "/gids/3");
  EXPECT_EQ(snapshot.read_failures[0].source, "sysfs");
  PollReads({.list = true}, &snapshot);  // not re-read, so still unknown
  EXPECT_EQ(snapshot.devices.at(0).ports.at(0).unreadable_gid_slots, std::vector<uint32_t>{3});
  fs_.ClearFailures();
  PollReads({.gids = true}, &snapshot);
  EXPECT_TRUE(snapshot.devices.at(0).ports.at(0).GidTableKnown());
  EXPECT_EQ(snapshot.devices.at(0).ports.at(0).gids.size(), 4u);
}

// The Monitor polls into the snapshot before last (PollInto): whatever it held before, the result
// must be what a fresh snapshot of the same poll holds, through value changes, a counter that
// disappears, a device that goes away and comes back.
TEST_F(SysfsPollerTest, PollingIntoAnEarlierSnapshotGivesWhatAFreshPollGives) {
  SysfsGidTableSource fresh_gids{fs_, root_, /*max_open=*/1024};
  SysfsPoller fresh{fs_, root_, &fresh_gids, /*max_open=*/1024};
  NodeSnapshot kept;
  kept.devices.resize(3);  // another shape: more devices, a stray port, stale errors
  kept.devices[0].ports.resize(2);
  kept.devices[0].ports[1].counters.counters["port_xmit_data"] = 5;
  kept.read_errors["verbs"] = 9;
  auto poll_both = [&](const PollScope& scope) {
    ASSERT_TRUE(poller_.PollInto(scope, kept).ok());
    StatusOr<NodeSnapshot> expected = fresh.Poll(scope);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(kept, *expected);
  };
  poll_both({});
  ASSERT_EQ(kept.devices.size(), 2u);
  Set(PortDir(0) + "/counters/port_rcv_data", "250");
  Set(PortDir(1) + "/state", "1: DOWN");
  Set(PortDir(1) + "/hw_counters/out_of_sequence", "77");
  poll_both({});
  poll_both({.everything = true});
  EXPECT_EQ(kept.devices[1].ports[0].counters.hw_counters.at("out_of_sequence"), 77u);
  ASSERT_EQ(std::remove((PortDir(0) + "/counters/symbol_error").c_str()), 0);
  poll_both({.list = true, .gids = true});
  EXPECT_EQ(kept.devices[0].ports[0].counters.counters.count("symbol_error"), 0u);
  fs_.FailPrefix(root_ + "/class/infiniband/mlx5_0", ENOENT);
  poll_both({});
  ASSERT_EQ(kept.devices.size(), 1u);
  EXPECT_EQ(kept.devices[0].name, "mlx5_1");
  fs_.ClearFailures();
  poll_both({});
  EXPECT_EQ(kept.devices.size(), 2u);
}

// Through PosixFileSystem the attributes stay open between polls: the 1 s poll is a pread per
// byte counter, no open.
TEST(SysfsPollerPosixTest, KeepsDescriptorsOpenAcrossPolls) {
  TempDir dir;
  const std::string root = dir.path() + "/sys";
  ASSERT_TRUE(WriteSysfsFixture(root, RailNode(2, kSlots)).ok());
  PosixFileSystem fs;
  SysfsGidTableSource gids(fs, root, 1024);
  SysfsPoller poller(fs, root, &gids, 1024);
  ASSERT_TRUE(poller.Poll({}).ok());
  const uint64_t opens = poller.reader().stats().opens;
  EXPECT_GT(opens, 100u);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(poller.Poll({.everything = true}).ok());
  EXPECT_EQ(poller.reader().stats().opens, opens);
  EXPECT_EQ(gids.reader().open_count(), 2 * kSlots);
  // A device event lists again: the attributes still listed keep their descriptors.
  ASSERT_TRUE(poller.Poll({.list = true, .gids = true}).ok());
  EXPECT_EQ(poller.reader().stats().opens, opens);
  EXPECT_EQ(poller.reader().open_count(), opens);
  EXPECT_EQ(gids.reader().stats().opens, 2 * kSlots);
  EXPECT_EQ(gids.reader().open_count(), 2 * kSlots);
}

}  // namespace
}  // namespace rocewatch
