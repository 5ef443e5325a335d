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

// The Monitor alternates two snapshots (it polls into the one before last and swaps): into a
// snapshot it wrote, a poll writes only what changed since it wrote it. The result must still be
// what a fresh snapshot holds, whichever kind of poll came between the two writes.
TEST_F(SysfsPollerTest, PollingIntoTwoAlternatingSnapshotsGivesWhatAFreshPollGives) {
  SysfsGidTableSource fresh_gids{fs_, root_, /*max_open=*/1024};
  SysfsPoller fresh{fs_, root_, &fresh_gids, /*max_open=*/1024};
  NodeSnapshot latest, spare;
  auto poll_both = [&](const PollScope& scope) {
    ASSERT_TRUE(poller_.PollInto(scope, spare).ok());
    std::swap(latest, spare);
    StatusOr<NodeSnapshot> expected = fresh.Poll(scope);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(latest, *expected);
  };
  poll_both({});
  poll_both({});
  for (int i = 0; i < 3; ++i) {
    Set(PortDir(0) + "/counters/port_xmit_data", std::to_string(1000 + i));
    poll_both({});
  }
  poll_both({.everything = true});  // nothing changed
  poll_both({});
  Set(PortDir(0) + "/counters/port_rcv_data", "2000");
  poll_both({.everything = true});  // a byte counter alone changed
  poll_both({});
  poll_both({});
  Set(PortDir(1) + "/hw_counters/out_of_sequence", "77");
  poll_both({.everything = true});
  EXPECT_EQ(latest.devices[1].ports[0].counters.hw_counters.at("out_of_sequence"), 77u);
  poll_both({});
  poll_both({});
  Set(PortDir(1) + "/counters/port_rcv_packets", "78");
  poll_both({.everything = true});
  poll_both({});
  poll_both({});
  Set(PortDir(1) + "/hw_counters/out_of_sequence", "79");
  poll_both({.everything = true});
  EXPECT_EQ(latest.devices[1].ports[0].counters.hw_counters.at("out_of_sequence"), 79u);
  poll_both({});  // the other snapshot: written before the change
  EXPECT_EQ(latest.devices[1].ports[0].counters.hw_counters.at("out_of_sequence"), 79u);
  poll_both({});
  Set(PortDir(0) + "/state", "1: DOWN");  // a port attribute alone
  poll_both({.everything = true});
  poll_both({});
  EXPECT_EQ(latest.devices[0].ports[0].state, "DOWN");
  poll_both({});
  fs_.FailPrefix(PortDir(1) + "/counters/port_rcv_data", EIO);  // a byte counter goes absent
  poll_both({});
  EXPECT_FALSE(latest.devices[1].ports[0].counters.receive_bytes.has_value());
  poll_both({});
  fs_.ClearFailures();
  poll_both({});
  poll_both({});
  EXPECT_TRUE(latest.devices[1].ports[0].counters.receive_bytes.has_value());
  fs_.FailPath(PortDir(0) + "/hw_counters/out_of_sequence", EIO);  // an error counter goes absent
  poll_both({.everything = true});
  EXPECT_EQ(latest.devices[0].ports[0].counters.hw_counters.count("out_of_sequence"), 0u);
  poll_both({});
  poll_both({});
  fs_.ClearFailures();
  poll_both({.everything = true});
  poll_both({});
  poll_both({});
  poll_both({.gids = true});
  poll_both({});
  poll_both({.list = true});
  poll_both({});
  fs_.FailPrefix(root_ + "/class/infiniband/mlx5_0", ENOENT);
  poll_both({});
  ASSERT_EQ(latest.devices.size(), 1u);
  poll_both({});  // listed without it
  fs_.ClearFailures();
  poll_both({.list = true});  // back
  EXPECT_EQ(latest.devices.size(), 2u);
  poll_both({});
  poll_both({});
}

TEST_F(SysfsPollerTest, ASteadyPollIntoASnapshotItWroteWritesTheByteCountersAlone) {
  NodeSnapshot snapshot;
  ASSERT_TRUE(poller_.PollInto({}, snapshot).ok());
  snapshot.devices[0].ports[0].state = "changed elsewhere";  // not reset: not seen by the poller
  Set(PortDir(0) + "/counters/port_xmit_data", "1234");
  ASSERT_TRUE(poller_.PollInto({}, snapshot).ok());
  EXPECT_EQ(snapshot.devices[0].ports[0].state, "changed elsewhere");
  EXPECT_EQ(snapshot.devices[0].ports[0].counters.transmit_bytes, 1234u * 4);
  EXPECT_EQ(snapshot.devices[0].ports[0].counters.counters.at("port_xmit_data"), 1234u);
  ASSERT_TRUE(poller_.PollInto({.everything = true}, snapshot).ok());  // nothing else changed
  EXPECT_EQ(snapshot.devices[0].ports[0].state, "changed elsewhere");
  snapshot.source_mark = {};  // as the contract asks of whoever changes it
  ASSERT_TRUE(poller_.PollInto({}, snapshot).ok());
  EXPECT_EQ(snapshot.devices[0].ports[0].state, "ACTIVE");
}

// A snapshot written by another poller (the same node, the same reads) is written whole.
TEST_F(SysfsPollerTest, ASnapshotOfAnotherPollerIsWrittenWhole) {
  SysfsGidTableSource other_gids{fs_, root_, /*max_open=*/1024};
  SysfsPoller other{fs_, root_, &other_gids, /*max_open=*/1024};
  NodeSnapshot its_own, snapshot;
  ASSERT_TRUE(other.PollInto({}, its_own).ok());
  ASSERT_TRUE(poller_.PollInto({}, snapshot).ok());
  snapshot.devices[0].ports[0].state = "changed elsewhere";  // to see whether it is written
  ASSERT_TRUE(other.PollInto({}, snapshot).ok());
  EXPECT_EQ(snapshot, its_own);
  EXPECT_EQ(snapshot.devices[0].ports[0].state, "ACTIVE");
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
