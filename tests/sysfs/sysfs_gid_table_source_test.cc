#include "sysfs/sysfs_gid_table_source.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "support/fault_injecting_file_system.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

const std::string kV4Gid = "0000:0000:0000:0000:0000:ffff:0a00:0002";

// One RoCE device with 10.0.0.2: GIDs at 0..3 of a table of `slots`.
FixtureDevice Rail0(uint32_t slots = 16) {
  return RoceDevice("mlx5_0", "ens1f0np0", "0c:42:a1:5e:00:00", {"10.0.0.2/24"}, 0, slots);
}

class SysfsGidTableSourceTest : public ::testing::Test {
 protected:
  void Write(const std::vector<FixtureDevice>& devices) {
    ASSERT_TRUE(WriteSysfsFixture(root_, devices).ok());
  }
  // Writes one device and reads its GID table back.
  GidTableRead WriteAndRead(const FixtureDevice& device) {
    EXPECT_TRUE(WriteSysfsFixture(root_, {device}).ok());
    auto read = source_.ReadDevice(device.name);
    EXPECT_TRUE(read.ok()) << read.status().ToString();
    return read.ok() ? *read : GidTableRead{};
  }
  std::string PortDir(const std::string& device) const {
    return root_ + "/class/infiniband/" + device + "/ports/1";
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
  SysfsGidTableSource source_{fs_, root_};
};

TEST_F(SysfsGidTableSourceTest, ReadsExactlyTheValidEntries) {
  Write({Rail0()});
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const std::string ll = "fe80:0000:0000:0000:0e42:a1ff:fe5e:0000";
  std::vector<GidEntry> want = {{1, 0, ll, GidType::kRoceV1, "ens1f0np0"},
                                {1, 1, ll, GidType::kRoceV2, "ens1f0np0"},
                                {1, 2, kV4Gid, GidType::kRoceV1, "ens1f0np0"},
                                {1, 3, kV4Gid, GidType::kRoceV2, "ens1f0np0"}};
  EXPECT_EQ(read->entries, want);
  EXPECT_EQ(read->failed_reads, 0u);
  EXPECT_STREQ(source_.name(), "sysfs");
}

TEST_F(SysfsGidTableSourceTest, NeverReadsTheAttributesOfZeroGids) {
  Write({Rail0(255)});
  ASSERT_TRUE(source_.ReadDevice("mlx5_0").ok());
  size_t gid_reads = 0, attr_reads = 0;
  for (const std::string& path : fs_.files_read()) {
    if (path.find("/gids/") != std::string::npos) ++gid_reads;
    if (path.find("/gid_attrs/") != std::string::npos) ++attr_reads;
  }
  EXPECT_EQ(gid_reads, 255u);     // every slot's GID, once
  EXPECT_EQ(attr_reads, 4u * 2);  // types + ndevs of the 4 valid entries only
  EXPECT_EQ(fs_.ReadCount(PortDir("mlx5_0") + "/gid_attrs/types/4"), 0u);
}

TEST_F(SysfsGidTableSourceTest, AnEinvalAttributeMeansNoEntryAndIsCounted) {
  Write({Rail0()});
  fs_.FailPath(PortDir("mlx5_0") + "/gid_attrs/types/3", EINVAL);
  fs_.FailPath(PortDir("mlx5_0") + "/gid_attrs/ndevs/2", EIO);
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->entries.size(), 2u);
  EXPECT_EQ(read->entries[0].index, 0u);
  EXPECT_EQ(read->entries[1].index, 1u);
  EXPECT_EQ(read->failed_reads, 2u);
}

TEST_F(SysfsGidTableSourceTest, AFailedGidReadIsAnUnknownSlotWithItsPathAndErrno) {
  Write({Rail0()});
  fs_.FailPath(PortDir("mlx5_0") + "/gids/3", EIO);
  fs_.FailPath(PortDir("mlx5_0") + "/gid_attrs/ndevs/2", EACCES);
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->entries.size(), 2u);
  std::vector<UnreadableGidSlot> want = {{1, 2, PortDir("mlx5_0") + "/gid_attrs/ndevs/2", EACCES},
                                         {1, 3, PortDir("mlx5_0") + "/gids/3", EIO}};
  EXPECT_EQ(read->unreadable, want);
}

TEST_F(SysfsGidTableSourceTest, AnEmptySlotIsNotUnknownThoughItsAttributesFail) {
  Write({Rail0()});
  // Real sysfs: an empty slot reads as the zero GID, its attributes fail with EINVAL.
  fs_.FailPath(PortDir("mlx5_0") + "/gid_attrs/types/5", EINVAL);
  fs_.FailPath(PortDir("mlx5_0") + "/gid_attrs/ndevs/5", EINVAL);
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->entries.size(), 4u);
  EXPECT_TRUE(read->unreadable.empty());
  EXPECT_EQ(read->failed_reads, 0u);
}

TEST_F(SysfsGidTableSourceTest, UnreadableFixtureAttributeFailsARealRead) {
  FixtureDevice device = Rail0();
  device.ports[0].unreadable = {"gid_attrs/types/3"};
  GidTableRead read = WriteAndRead(device);
  EXPECT_EQ(read.entries.size(), 3u);
  EXPECT_EQ(read.failed_reads, 1u);
}

TEST_F(SysfsGidTableSourceTest, MalformedGidOrNetdevIsNoEntry) {
  FixtureDevice device = Rail0();
  device.ports[0].gids[2].gid = "fe80::1";
  device.ports[0].gids[3].netdev = "not/a/netdev";
  GidTableRead read = WriteAndRead(device);
  EXPECT_EQ(read.entries.size(), 2u);
  EXPECT_EQ(read.failed_reads, 2u);
}

TEST_F(SysfsGidTableSourceTest, UnknownTypePassesThrough) {
  FixtureDevice device = Rail0();
  device.ports[0].gids[3].type_text = "RoCE v3";
  GidTableRead read = WriteAndRead(device);
  ASSERT_EQ(read.entries.size(), 4u);
  EXPECT_EQ(read.entries[3].type, GidType::kUnknown);
}

TEST_F(SysfsGidTableSourceTest, InfinibandPortHasIbTypeAndNoNetdevRead) {
  FixtureDevice device;
  device.name = "mlx5_ib";
  FixturePort port;
  port.link_layer = "InfiniBand";
  port.gid_table_len = 8;
  port.gids = {{0, "fe80:0000:0000:0000:0c42:a103:005e:0000", "IB/RoCE v1", ""}};
  port.unreadable = {"gid_attrs/ndevs/0"};  // the kernel fails it: an IB GID has no netdev
  device.ports = {port};
  GidTableRead read = WriteAndRead(device);
  ASSERT_EQ(read.entries.size(), 1u);
  EXPECT_EQ(read.entries[0].type, GidType::kIb);
  EXPECT_EQ(read.entries[0].netdev, "");
  EXPECT_EQ(read.failed_reads, 0u);
}

TEST_F(SysfsGidTableSourceTest, MissingDeviceIsNotFound) {
  Write({});
  auto read = source_.ReadDevice("mlx5_9");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kNotFound);
}

TEST_F(SysfsGidTableSourceTest, UnlistableGidsDirectoryIsCountedNotFatal) {
  Write({Rail0()});
  fs_.FailPath(PortDir("mlx5_0") + "/gids", EACCES);
  auto read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->entries.empty());
  EXPECT_EQ(read->failed_reads, 1u);
  std::vector<UnreadableGidSlot> want = {{1, std::nullopt, PortDir("mlx5_0") + "/gids", EACCES}};
  EXPECT_EQ(read->unreadable, want);
}

}  // namespace
}  // namespace rocewatch
