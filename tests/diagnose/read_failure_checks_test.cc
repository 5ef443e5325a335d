#include "inventory/read_failure_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>

#include "support/node_builder.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

const std::string kPortDir = "/host/sys/class/infiniband/mlx5_0/ports/1";

NodeSnapshot TwoRails() {
  NodeSnapshot node;
  node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  node.devices.push_back(RoceDevice("mlx5_1", "eth1", {"10.0.1.2"}));
  return node;
}

TEST(ReadFailureChecks, ANodeWhoseReadsAllSucceededHasNoFinding) {
  EXPECT_TRUE(CheckReadFailures(TwoRails(), {}).empty());
}

TEST(ReadFailureChecks, AnUnreadableGidSlotNamesItsFileErrnoAndTheChecksNotRun) {
  NodeSnapshot node = TwoRails();
  node.devices[0].ports[0].unreadable_gid_slots = {3};
  node.read_errors["sysfs"] = 1;
  std::vector<ReadFailure> named = {{"sysfs", kPortDir + "/gids/3", EIO}};
  std::vector<Finding> f = CheckReadFailures(node, named);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "read_failed");
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].subject, "mlx5_0/1");
  EXPECT_THAT(f[0].message, HasSubstr("1 GID slot of mlx5_0/1 could not be read (index 3): its "
                                      "GID is unknown, not empty"));
  EXPECT_THAT(f[0].message, HasSubstr("nccl_gid_index_without_roce_v2_gid could not run"));
  EXPECT_THAT(f[0].message, HasSubstr(kPortDir + "/gids/3: Input/output error (EIO)"));
}

TEST(ReadFailureChecks, UnreadableCountersAreUnknownNotZero) {
  NodeSnapshot node = TwoRails();
  node.devices[1].ports[0].counters.unreadable = {"counters/symbol_error"};
  std::vector<Finding> f = CheckReadFailures(node, {});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "mlx5_1/1");
  EXPECT_THAT(f[0].message, HasSubstr("counter counters/symbol_error of mlx5_1/1 could not be "
                                      "read: their values are unknown (not zero)"));
  EXPECT_THAT(f[0].message, ::testing::Not(HasSubstr("GID")));
}

TEST(ReadFailureChecks, AnUnlistableTableIsWhollyUnknown) {
  NodeSnapshot node = TwoRails();
  node.devices[0].ports[0].gid_table_unlistable = true;
  std::vector<Finding> f = CheckReadFailures(node, {{"sysfs", kPortDir + "/gids", EACCES}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(f[0].message, HasSubstr("every GID of the port is unknown"));
  EXPECT_THAT(f[0].message, HasSubstr("Permission denied (EACCES)"));
}

TEST(ReadFailureChecks, FailuresOutsideThePortsAreOneFindingPerSourceBounded) {
  NodeSnapshot node = TwoRails();
  std::vector<ReadFailure> named;
  for (int i = 0; i < 6; ++i)
    named.push_back(
        {"sysfs", "/host/sys/class/infiniband/mlx5_" + std::to_string(i) + "/fw_ver", ETIMEDOUT});
  node.read_errors["sysfs"] = 40;
  std::vector<Finding> f = CheckReadFailures(node, named);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].subject, "sysfs");
  EXPECT_THAT(f[0].message, HasSubstr("mlx5_0/fw_ver: Connection timed out (ETIMEDOUT)"));
  EXPECT_THAT(f[0].message, HasSubstr("and 2 more (40 failed sysfs reads in all)"));
}

}  // namespace
}  // namespace rocewatch
