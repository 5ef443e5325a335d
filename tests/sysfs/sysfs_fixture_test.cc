#include "support/sysfs_fixture.h"

#include <gtest/gtest.h>

#include "model/gid.h"
#include "os/file_system.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

TEST(SysfsFixtureTest, LinkLocalGidIsTheEui64OfTheMac) {
  EXPECT_EQ(LinkLocalGidOfMac("0c:42:a1:5e:00:03"), "fe80:0000:0000:0000:0e42:a1ff:fe5e:0003");
  EXPECT_EQ(LinkLocalGidOfMac("not a mac"), kZeroGidText);
}

TEST(SysfsFixtureTest, RoceDeviceLaysDefaultsThenOnePairPerAddressAtTheLowestSlots) {
  FixtureDevice d =
      RoceDevice("mlx5_0", "ens1f0np0", "0c:42:a1:5e:00:00", {"10.0.0.2/24", "10.1.0.2"});
  const auto& gids = d.ports[0].gids;
  ASSERT_EQ(gids.size(), 6u);
  EXPECT_EQ(gids[0].type_text, "IB/RoCE v1");
  EXPECT_EQ(gids[1].type_text, "RoCE v2");
  EXPECT_EQ(gids[4].index, 4u);
  EXPECT_EQ(gids[4].gid, *GidOfAddress("10.1.0.2"));
  EXPECT_EQ(gids[5].type_text, "RoCE v2");
  EXPECT_EQ(d.ports[0].gid_table_len, 255u);
}

TEST(SysfsFixtureTest, ExampleNodeHasMlx53Drifted) {
  auto node = ExampleEightRailNode();
  ASSERT_EQ(node.size(), 8u);
  EXPECT_EQ(node[3].ports[0].gids[2].index, 4u);
  EXPECT_EQ(node[3].ports[0].gids[3].index, 5u);
  EXPECT_EQ(node[4].ports[0].gids[2].index, 2u);
  EXPECT_EQ(node[7].ports[0].netdevs, std::vector<std::string>{"ens8f0np0"});
}

TEST(SysfsFixtureTest, WritesTheKernelLayout) {
  TempDir dir;
  FixtureDevice d = RailDevice(0, 8);
  d.ports[0].unreadable = {"counters/symbol_error"};
  ASSERT_TRUE(WriteSysfsFixture(dir.path(), {d}).ok());
  PosixFileSystem fs;
  const std::string port = dir.path() + "/class/infiniband/mlx5_0/ports/1";
  EXPECT_EQ(*fs.ReadFile(port + "/state", 100), "4: ACTIVE\n");
  EXPECT_EQ(*fs.ReadFile(port + "/phys_state", 100), "5: LinkUp\n");
  EXPECT_EQ(fs.ListDir(port + "/gids")->size(), 8u);
  EXPECT_EQ(*fs.ReadFile(port + "/gids/7", 100), std::string(kZeroGidText) + "\n");
  EXPECT_EQ(fs.ReadFile(port + "/gid_attrs/types/7", 100).status().sys_errno(), EISDIR);
  EXPECT_EQ(*fs.ReadFile(port + "/gid_attrs/ndevs/3", 100), "ens1f0np0\n");
  EXPECT_EQ(fs.ReadFile(port + "/counters/symbol_error", 100).status().sys_errno(), EISDIR);
  EXPECT_EQ(*fs.ReadFile(port + "/hw_counters/lifespan", 100), "10\n");
  EXPECT_EQ(
      *fs.ReadFile(dir.path() + "/class/infiniband/mlx5_0/device/net/ens1f0np0/dev_port", 100),
      "0\n");
  EXPECT_EQ(*fs.ReadFile(dir.path() + "/class/net/ens1f0np0/address", 100), "0c:42:a1:5e:00:00\n");
  EXPECT_EQ(*fs.ReadFile(dir.path() + "/class/net/ens1f0np0/carrier", 100), "1\n");
}

TEST(SysfsFixtureTest, RejectsAGidOutsideTheTable) {
  TempDir dir;
  FixtureDevice d = RailDevice(0, 4);
  d.ports[0].gids.push_back({4, kZeroGidText, "RoCE v2", ""});
  EXPECT_EQ(WriteSysfsFixture(dir.path(), {d}).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace rocewatch
