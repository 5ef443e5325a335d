// A failed read is never a fact: with one GID file unreadable, `rocewatch diagnose` reports the
// slot as unknown and the checks that need it as not run (not "0 slots in use" and a missing
// GID), and the daemon turns unhealthy with a finding naming the file until the read succeeds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

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
#include "support/http_client.h"
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
  // The two rails' netdevs, up, with their addresses.
  static void AddRailNetdevs(FakeHostEnv& host) {
    host.netlink().links = {MakeLink(1, "lo", true), MakeLink(2, "ens1f0np0", true),
                            MakeLink(3, "ens2f0np0", true)};
    host.netlink().addresses = {MakeAddress(2, "10.0.0.2/24"), MakeAddress(3, "10.0.1.2/24")};
  }
  // diagnose of the tree, through sysfs, without a daemon or a kubelet.
  DiagnoseOptions Options() const {
    DiagnoseOptions options;
    options.common.paths = HostPaths::ForRoots(dir_.path());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.daemon.reset();
    options.consumers.kubelet_socket = "none";
    return options;
  }

  TempDir dir_;
  const std::string sysfs_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
};

TEST_F(UnreadableSysfsTest, DiagnoseReportsTheSlotUnknownAndTheChecksNotRun) {
  fs_.FailPath(Gid3(), EIO);
  FakeHostEnv host(fs_);
  AddRailNetdevs(host);
  DiagnoseOptions options = Options();
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

TEST_F(UnreadableSysfsTest, UnreadablePortAndDeviceAttributesAreUnknownNotBlankOrDown) {
  const std::string port = sysfs_ + "/class/infiniband/mlx5_0/ports/1/";
  fs_.FailPath(port + "state", EIO);
  fs_.FailPath(port + "rate", EIO);
  fs_.FailPath(sysfs_ + "/class/infiniband/mlx5_1/fw_ver", EIO);
  FakeHostEnv host(fs_);
  AddRailNetdevs(host);
  DiagnoseOptions options = Options();
  std::ostringstream text, text_err;
  RunDiagnose(host.env(), options, text, text_err, /*out_is_terminal=*/false);
  EXPECT_THAT(text.str(), HasSubstr("port 1: unknown (unreadable) (LinkUp), Ethernet, unknown "
                                    "(unreadable), netdevs ens1f0np0"));
  EXPECT_THAT(text.str(), HasSubstr("fw unknown (unreadable)"));
  EXPECT_THAT(text.str(), ::testing::Not(HasSubstr("[port_not_active]")))
      << "a failed read is not a port that is down";
  EXPECT_THAT(text.str(), HasSubstr("[read_failed]"));
  options.json = true;
  std::ostringstream out, err;
  RunDiagnose(host.env(), options, out, err, /*out_is_terminal=*/false);
  nlohmann::json report = nlohmann::json::parse(out.str());
  const nlohmann::json& p = report["devices"][0]["ports"][0];
  EXPECT_TRUE(p["state"].is_null()) << p.dump();
  EXPECT_TRUE(p["rate"].is_null());
  EXPECT_EQ(p["phys_state"], "LinkUp");
  EXPECT_EQ(p["link_layer"], "Ethernet");
  EXPECT_TRUE(report["devices"][1]["fw_ver"].is_null());
  EXPECT_EQ(report["devices"][1]["ports"][0]["state"], "ACTIVE");
  for (const auto& f : report["findings"]) EXPECT_NE(f["check"], "port_not_active") << f.dump();
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

TEST_F(UnreadableSysfsDaemonTest, AnUnreadablePortStateIsNoSampleNotAPortDown) {
  monitor_.AddComponent(std::make_unique<InventoryComponent>());
  ASSERT_TRUE(monitor_.Start().ok());
  auto exposition = [&] {
    return prometheus::TextSerializer().Serialize(monitor_.BuildExposition());
  };
  const std::string active0 = R"(rocewatch_port_active{device="mlx5_0",port="1"})";
  EXPECT_EQ(FindSample(exposition(), active0), 1);
  const std::string port = sysfs_ + "/class/infiniband/mlx5_0/ports/1/";
  fs_.FailPath(port + "state", EIO);
  fs_.FailPath(port + "link_layer", EIO);
  PollAfterEvent();  // an event's snapshot reads the port attributes
  const std::string text = exposition();
  EXPECT_EQ(FindSample(text, active0), std::nullopt) << "unknown: no 0 that pages RoceLinkDown";
  EXPECT_EQ(FindSample(text, R"(rocewatch_port_active{device="mlx5_1",port="1"})"), 1);
  EXPECT_EQ(FindSample(text, R"(rocewatch_port_info{device="mlx5_0",port="1",)"
                             R"(link_layer="Ethernet",netdev="ens1f0np0"})"),
            1)
      << "the link layer read last stays: " << text;
  EXPECT_FALSE(ReadFailed().empty());
  fs_.ClearFailures();
  PollAfterEvent();
  EXPECT_EQ(FindSample(exposition(), active0), 1);
}

}  // namespace
}  // namespace rocewatch
