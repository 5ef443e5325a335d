// The snapshot-based configuration checks on sysfs fixture trees read through the real inventory
// (SysfsInventory + SysfsGidTableSource), as diagnose reads them: each fires on one tree and stays
// quiet on another. The host-side checks have their fixture host roots in
// configuration_checks_test.cc; the whole example node is tests/integration/diagnose_cli_test.cc.

#include <gtest/gtest.h>

#include "diagnose/configuration_checks.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {
namespace {

class ConfigurationChecksOnSysfsTest : public ::testing::Test {
 protected:
  // Writes devices_ and reads them back as diagnose does.
  NodeSnapshot Snapshot() {
    const std::string root = dir_.path() + "/sys";
    EXPECT_TRUE(WriteSysfsFixture(root, devices_).ok());
    PosixFileSystem fs;
    SysfsGidTableSource gids(fs, root);
    StatusOr<NodeSnapshot> snapshot = SysfsInventory(fs, root).Read(&gids, true);
    EXPECT_TRUE(snapshot.ok()) << snapshot.status().ToString();
    return snapshot.ok() ? *snapshot : NodeSnapshot{};
  }
  std::vector<std::string> Checks(const NodeSnapshot& now, const NodeSnapshot* earlier = nullptr) {
    ConfigurationCheckInput input;
    input.snapshot = &now;
    input.earlier = earlier;
    std::vector<std::string> ids;
    for (const Finding& f : RunConfigurationChecks(input)) ids.push_back(f.check + " " + f.subject);
    return ids;
  }
  TempDir dir_;
  std::vector<FixtureDevice> devices_ = RailNode(3, /*gid_table_len=*/16);
};

TEST_F(ConfigurationChecksOnSysfsTest, HealthyRailsStayQuiet) {
  EXPECT_EQ(Checks(Snapshot()), std::vector<std::string>{});
}

TEST_F(ConfigurationChecksOnSysfsTest, GidIndexDifferingOnOneRailWarns) {
  for (FixtureGid& gid : devices_[2].ports[0].gids)
    if (gid.index >= 2) gid.index += 2;
  EXPECT_EQ(Checks(Snapshot()),
            std::vector<std::string>{"roce_v2_ipv4_gid_index_differs mlx5_2/1"});
}

TEST_F(ConfigurationChecksOnSysfsTest, AdaptiveRetransmissionCountersAbsentIsInfo) {
  devices_[1].ports[0].hw_counters.erase("roce_adp_retrans");
  devices_[1].ports[0].hw_counters.erase("roce_adp_retrans_to");
  EXPECT_EQ(Checks(Snapshot()),
            std::vector<std::string>{"adaptive_retransmission_counters_absent mlx5_1"});
}

TEST_F(ConfigurationChecksOnSysfsTest, LinkErrorCountersRisingDuringAWatchWarn) {
  NodeSnapshot before = Snapshot();
  EXPECT_EQ(Checks(Snapshot(), &before), std::vector<std::string>{});  // nothing changed
  devices_[0].ports[0].counters["symbol_error"] = "37";
  devices_[0].ports[0].counters["link_downed"] = "4";
  EXPECT_EQ(Checks(Snapshot(), &before),
            std::vector<std::string>{"link_error_counters_rising mlx5_0/1"});
}

}  // namespace
}  // namespace rocewatch
