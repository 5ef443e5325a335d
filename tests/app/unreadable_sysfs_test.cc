// A failed read is never a fact: with one GID file unreadable, `rocewatch diagnose` reports the
// slot as unknown and the checks that need it as not run (not "0 slots in use" and a missing
// GID), and the daemon turns unhealthy with a finding naming the file until the read succeeds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <nlohmann/json.hpp>
#include <sstream>

#include "daemon/inventory_snapshot_source.h"
#include "daemon/monitor.h"
#include "diagnose/diagnose_command.h"
#include "inventory/inventory_component.h"
#include "support/fake_clock.h"
#include "support/fake_host_env.h"
#include "support/fault_injecting_file_system.h"
#include "support/netlink_builders.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "sysfs/sysfs_gid_table_source.h"

namespace rocewatch {
namespace {

using ::testing::HasSubstr;

class UnreadableSysfsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(WriteSysfsFixture(sysfs_, RailNode(2, 16)).ok()); }
  // gids/3 of mlx5_0 holds 10.0.0.2's RoCE v2 GID.
  std::string Gid3() const { return sysfs_ + "/class/infiniband/mlx5_0/ports/1/gids/3"; }

  TempDir dir_;
  const std::string sysfs_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
};

TEST_F(UnreadableSysfsTest, DiagnoseReportsTheSlotUnknownAndTheChecksNotRun) {
  fs_.FailPath(Gid3(), EIO);
  FakeHostEnv host(fs_);
  host.netlink().links = {MakeLink(1, "lo", true), MakeLink(2, "ens1f0np0", true),
                          MakeLink(3, "ens2f0np0", true)};
  host.netlink().addresses = {MakeAddress(2, "10.0.0.2/24"), MakeAddress(3, "10.0.1.2/24")};
  DiagnoseOptions options;
  options.common.paths = HostPaths::ForRoots(dir_.path());
  options.common.gid_source = GidSourceChoice::kSysfs;
  options.daemon.reset();
  options.consumers.kubelet_socket = "none";
  for (bool json : {true, false}) {
    options.json = json;
    std::ostringstream out, err;
    const int status = RunDiagnose(host.env(), options, out, err, /*out_is_terminal=*/false);
    EXPECT_EQ(status, 1) << "a warning, not critical: " << out.str() << err.str();
    if (!json) {
      EXPECT_THAT(out.str(), HasSubstr("3/16 GID slots in use, 1 unknown (unreadable: index 3)"));
      EXPECT_THAT(out.str(), HasSubstr("[read_failed]"));
      EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("[ipv4_without_roce_v2_gid]")));
      continue;
    }
    nlohmann::json report = nlohmann::json::parse(out.str());
    const nlohmann::json& port = report["devices"][0]["ports"][0];
    EXPECT_EQ(port["gids"].size(), 3u);  // only valid entries are listed
    EXPECT_EQ(port["gid_slots_unreadable"], 1);
    EXPECT_EQ(port["gid_indices_unreadable"], nlohmann::json::array({3}));
    EXPECT_FALSE(report["devices"][1]["ports"][0].contains("gid_slots_unreadable"));
    ASSERT_EQ(report["findings"].size(), 1u) << report["findings"].dump();
    const nlohmann::json& f = report["findings"][0];
    EXPECT_EQ(f["check"], "read_failed");
    EXPECT_EQ(f["subject"], "mlx5_0/1");
    EXPECT_THAT(f["message"].get<std::string>(), HasSubstr(Gid3() + ": Input/output error (EIO)"));
  }
}

// The daemon's cycle on the same tree: the real poller and GID source, the inventory component.
class UnreadableSysfsDaemonTest : public UnreadableSysfsTest {
 protected:
  double InventorySuccess() const {
    for (const prometheus::MetricFamily& family : monitor_.BuildExposition()) {
      if (family.name != "rocewatch_component_success") continue;
      for (const prometheus::ClientMetric& metric : family.metric)
        for (const prometheus::ClientMetric::Label& label : metric.label)
          if (label.name == "component" && label.value == "inventory") return metric.gauge.value;
    }
    return -1;
  }
  std::vector<Finding> ReadFailed() const {
    std::vector<Finding> found;
    for (const Finding& f : monitor_.CurrentFindings())
      if (f.check == "read_failed") found.push_back(f);
    return found;
  }
  // A poll that reads the GID tables again (as after an address event).
  void PollAfterEvent() {
    source_.ExpectChange();
    ASSERT_TRUE(monitor_.PollNow("test").ok());
  }

  FakeClock clock_;
  EventLoop loop_{clock_};
  SysfsGidTableSource gids_{fs_, sysfs_, /*max_open=*/64};
  SysfsPoller poller_{fs_, sysfs_, &gids_, /*max_open=*/64};
  InventorySnapshotSource source_{poller_, gids_, clock_};
  Monitor monitor_{loop_, source_, MonitorOptions{}};
};

TEST_F(UnreadableSysfsDaemonTest, FailingReadsMakeTheInventoryUnhealthyWithAFindingUntilTheyRead) {
  monitor_.AddComponent(std::make_unique<InventoryComponent>());
  ASSERT_TRUE(monitor_.Start().ok());
  EXPECT_EQ(InventorySuccess(), 1);
  EXPECT_TRUE(ReadFailed().empty());

  fs_.FailPath(Gid3(), EIO);
  PollAfterEvent();
  EXPECT_EQ(InventorySuccess(), 0);
  std::vector<Finding> failed = ReadFailed();
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].subject, "mlx5_0/1");
  EXPECT_THAT(failed[0].message, HasSubstr(Gid3() + ": Input/output error (EIO)"));

  // Polls that carry the table forward (no GID read) keep it unknown, and unhealthy.
  clock_.Advance(std::chrono::seconds(1));
  ASSERT_TRUE(monitor_.PollNow("interval").ok());
  EXPECT_EQ(InventorySuccess(), 0);
  ASSERT_EQ(ReadFailed().size(), 1u);
  EXPECT_THAT(ReadFailed()[0].message, HasSubstr("EIO"));

  fs_.ClearFailures();
  PollAfterEvent();
  EXPECT_EQ(InventorySuccess(), 1);
  EXPECT_TRUE(ReadFailed().empty());
}

}  // namespace
}  // namespace rocewatch
