#include "verbs/verbs_gid_table_source.h"

#include <gtest/gtest.h>

#include "support/fake_verbs_api.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {
namespace {

const std::string kDefaultV1 = "fe80:0000:0000:0000:0202:c9ff:fe00:0001";
const std::string kIpv4Gid = "0000:0000:0000:0000:0000:ffff:0a00:0001";

class VerbsGidTableSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_.AddDevice("mlx5_0", 1, 255);
    api_.SetGidTable("mlx5_0", {{1, 0, kDefaultV1, GidType::kRoceV1, "eth0"},
                                {1, 1, kDefaultV1, GidType::kRoceV2, "eth0"},
                                {1, 3, kIpv4Gid, GidType::kRoceV2, "eth0"}});
    devices_.Refresh();
  }
  FakeVerbsApi api_;
  VerbsDeviceSet devices_{api_};
  VerbsGidTableSource source_{devices_};
};

TEST_F(VerbsGidTableSourceTest, ReadsValidEntriesInSysfsForm) {
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->entries.size(), 3u);
  EXPECT_EQ(read->entries[2], (GidEntry{1, 3, kIpv4Gid, GidType::kRoceV2, "eth0"}));
  EXPECT_EQ(read->entries[0].gid, kDefaultV1);
  EXPECT_EQ(read->failed_reads, 0u);
  EXPECT_STREQ(source_.name(), "verbs");
}

TEST_F(VerbsGidTableSourceTest, SizesTheBufferAsTheSumOfPortTableLengths) {
  api_.AddDevice("mlx5_1", 2, 128);
  devices_.Refresh();
  ASSERT_TRUE(source_.ReadDevice("mlx5_1").ok());
  ASSERT_TRUE(source_.ReadDevice("mlx5_1").ok());
  EXPECT_EQ(api_.gid_table_queries, (std::vector<size_t>{256, 256}));
}

TEST_F(VerbsGidTableSourceTest, GrowsTheBufferAfterEinval) {
  api_.device("mlx5_0").ports[0].gid_table_len = 2;  // a driver reporting fewer than it fills
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->entries.size(), 3u);
  EXPECT_EQ(api_.gid_table_queries, (std::vector<size_t>{2, 4}));
  ASSERT_TRUE(source_.ReadDevice("mlx5_0").ok());
  EXPECT_EQ(api_.gid_table_queries.back(), 4u) << "the grown size is kept";
}

TEST_F(VerbsGidTableSourceTest, GivesUpAfterBoundedRetries) {
  api_.device("mlx5_0").ports[0].gid_table_len = 0;
  api_.device("mlx5_0").entries.resize(1000);
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().sys_errno(), EINVAL);
  EXPECT_EQ(api_.gid_table_queries.size(), 1u + VerbsGidTableSource::kMaxGrowRetries);
}

TEST_F(VerbsGidTableSourceTest, UnknownTypesAndVanishedNetdevsArePassedThrough) {
  api_.device("mlx5_0").entries[2].type = 9;
  api_.ForgetNetdev("eth0");
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->entries[2].type, GidType::kUnknown);
  EXPECT_EQ(read->entries[2].netdev, "ifindex" + std::to_string(api_.IfindexOf("eth0")));
  EXPECT_EQ(read->failed_reads, 1u) << "one failed name lookup per netdev per read";
}

TEST_F(VerbsGidTableSourceTest, InfinibandEntriesHaveNoNetdev) {
  api_.SetGidTable("mlx5_0", {{1, 0, "fe80:0000:0000:0000:0002:c903:0001:0002", GidType::kIb, ""}});
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->entries[0].type, GidType::kIb);
  EXPECT_EQ(read->entries[0].netdev, "");
}

TEST_F(VerbsGidTableSourceTest, AGoneDeviceIsClosedAndReportedNotFound) {
  api_.Unplug("mlx5_0");
  StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_0");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(devices_.Find("mlx5_0"), nullptr);
  EXPECT_EQ(api_.closes["mlx5_0"], 1);
}

TEST_F(VerbsGidTableSourceTest, ADeviceNewerThanTheEnumerationIsOpenedOnItsFirstRead) {
  api_.AddDevice("mlx5_1");
  ASSERT_TRUE(source_.ReadDevice("mlx5_1").ok());
  EXPECT_NE(devices_.Find("mlx5_1"), nullptr);
}

TEST_F(VerbsGidTableSourceTest, ADeviceVerbsCannotOpenIsUnavailableAndRetriedWithBackoff) {
  api_.AddDevice("mlx5_1").open_errno = EACCES;
  for (int poll = 0; poll < 20; ++poll) {
    StatusOr<GidTableRead> read = source_.ReadDevice("mlx5_1");
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), StatusCode::kUnavailable) << "the device exists";
  }
  // Attempts at polls 0, 2, 5, 10, 19: skipping 1, 2, 4, 8 polls in between.
  EXPECT_EQ(api_.open_attempts["mlx5_1"], 5);
  api_.device("mlx5_1").open_errno = 0;
  for (uint32_t poll = 0; poll <= 16 && devices_.Find("mlx5_1") == nullptr; ++poll)
    (void)source_.ReadDevice("mlx5_1");
  EXPECT_NE(devices_.Find("mlx5_1"), nullptr) << "opened once the 16-poll backoff ends";
}

TEST_F(VerbsGidTableSourceTest, ADeviceVerbsDoesNotListIsUnavailable) {
  EXPECT_EQ(source_.ReadDevice("mlx5_9").status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace rocewatch
