#include "gid_drift/stale_gid_impact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

RailConsumer Rank(int pid, const std::string& pod, const std::string& nccl,
                  std::optional<long long> gid_index = std::nullopt) {
  RailConsumer c;
  c.pid = pid;
  c.comm = "python3";
  c.pod = pod;
  c.pod_namespace = "ml";
  c.nccl_version = nccl;
  c.nccl_gid_index = gid_index;
  return c;
}

TEST(StaleGidImpactTest, APinnedIndexBreaksLiveAndNewConnections) {
  std::string text = DescribeStaleGidImpact({Rank(4100, "trainer-0", "2.21.5", 3)}, 3, 5);
  EXPECT_EQ(text,
            "pod ml/trainer-0 (NCCL_IB_GID_INDEX=3: its live and new connections use the stale "
            "index 3; it fails or hangs until restarted with NCCL_IB_GID_INDEX=5).");
}

TEST(StaleGidImpactTest, AutomaticSelectionBreaksOnlyQueuePairsCreatedBefore) {
  std::string text = DescribeStaleGidImpact(
      {Rank(4100, "trainer-0", "2.21.5"), Rank(4101, "trainer-0", "2.21.5")}, 3, 5);
  EXPECT_THAT(text, HasSubstr("pod ml/trainer-0 (NCCL 2.21.5, automatic GID selection"));
  EXPECT_THAT(text, HasSubstr("new communicators use index 5"));
  EXPECT_EQ(text.find("trainer-0", text.find("trainer-0") + 1), std::string::npos);  // once
}

TEST(StaleGidImpactTest, OldNcclUsesIndexZeroAndIsUntouchedByAnIpv4Move) {
  std::string text = DescribeStaleGidImpact({Rank(4100, "old-job", "2.18.3")}, 3, 5);
  EXPECT_THAT(text, HasSubstr("NCCL 2.18.3 uses GID index 0 by default: not the moved GID's"));
}

TEST(StaleGidImpactTest, UnknownVersionsAndNoConsumers) {
  RailConsumer perftest;
  perftest.pid = 977;
  perftest.comm = "ib_write_bw";
  EXPECT_EQ(DescribeStaleGidImpact({perftest}, 3, 5),
            "pid 977 (ib_write_bw) (queue pairs created before the move keep the stale index 3 "
            "until the process re-creates them).");
  EXPECT_EQ(DescribeStaleGidImpact({}, 3, 5), "");
}

}  // namespace
}  // namespace rocewatch
