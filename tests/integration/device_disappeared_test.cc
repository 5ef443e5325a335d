// An RDMA device that leaves sysfs under a running daemon (the SRE's report: "findings for 30 s,
// then none; `diagnose --npd` said healthy"): the real binary on a fixture sysfs tree, whose
// mlx5_1 directory is moved away and back. The daemon holds device_disappeared (critical) poll
// after poll and across its own restart, `diagnose --npd` is NonOK while it does, and the device
// coming back ends it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/daemon_process.h"
#include "support/golden.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using nlohmann::json;

class DeviceDisappearedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(2, 8)).ok());
    dir_.WriteFile("proc/sys/kernel/random/boot_id", "5c0e2f3a-1b2c-4d5e-8f90-0123456789ab\n");
  }
  StatusOr<std::unique_ptr<DaemonProcess>> StartDaemon() {
    return DaemonProcess::Start({"--host-root", dir_.path(), "--state-file",
                                 dir_.path() + "/state.json", "--interval", "200ms",
                                 "--listing-backstop", "200ms"});
  }
  void Move(const std::string& from, const std::string& to) {
    std::filesystem::rename(dir_.path() + "/" + from, dir_.path() + "/" + to);
  }
  // The daemon's device_disappeared finding on mlx5_1/1 (null json when it has none).
  static json MissingFinding(DaemonProcess& daemon) {
    StatusOr<HttpResponse> answer = daemon.Get("/api/v1/findings");
    if (!answer.ok() || answer->status != 200) return json();
    json doc = json::parse(answer->body, nullptr, false);
    if (doc.is_discarded()) return json();
    for (const json& f : doc["findings"])
      if (f["check"] == "device_disappeared" && f["subject"] == "mlx5_1/1") return f;
    return json();
  }
  // Waits (bounded) until the finding is there (or gone, with `present` false).
  static json AwaitMissing(DaemonProcess& daemon, bool present) {
    for (int i = 0; i < 100; ++i) {
      json f = MissingFinding(daemon);
      if (f.is_null() != present) return f;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return MissingFinding(daemon);
  }
  std::string Npd(DaemonProcess& daemon, int* status) {
    return RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --npd --host-root " + dir_.path() +
                          " --daemon http://127.0.0.1:" + std::to_string(daemon.port()) +
                          " 2>/dev/null",
                      status);
  }
  TempDir dir_;
};

TEST_F(DeviceDisappearedTest, AVanishedDeviceStaysCriticalUntilItReturnsAcrossARestart) {
  auto daemon = StartDaemon();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  ASSERT_TRUE(AwaitMissing(**daemon, false).is_null());
  Move("sys/class/infiniband/mlx5_1", "mlx5_1.gone");

  json f = AwaitMissing(**daemon, true);
  ASSERT_FALSE(f.is_null()) << (*daemon)->ReadLog();
  EXPECT_EQ(f["severity"], "critical");
  EXPECT_NE(f["message"].get<std::string>().find("(netdev ens2f0np0) disappeared at"),
            std::string::npos)
      << f;
  const std::string since = f["since"];
  std::this_thread::sleep_for(std::chrono::seconds(3));  // 15 polls: still held
  f = MissingFinding(**daemon);
  ASSERT_FALSE(f.is_null());
  EXPECT_EQ(f["since"], since);
  EXPECT_EQ(FindSample((*daemon)->Scrape().value_or(""),
                       R"(rocewatch_device_missing{device="mlx5_1",port="1",netdev="ens2f0np0"})"),
            1);
  int status = -1;
  std::string npd = Npd(**daemon, &status);
  EXPECT_EQ(status, 1) << npd;
  EXPECT_EQ(npd.rfind("critical device_disappeared on mlx5_1/1: ", 0), 0u) << npd;

  // A restart on the same boot does not forget it, nor when it began.
  ASSERT_EQ((*daemon)->Stop(), 0);
  daemon = StartDaemon();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  f = AwaitMissing(**daemon, true);
  ASSERT_FALSE(f.is_null()) << (*daemon)->ReadLog();
  EXPECT_EQ(f["since"], since);

  Move("mlx5_1.gone", "sys/class/infiniband/mlx5_1");
  EXPECT_TRUE(AwaitMissing(**daemon, false).is_null()) << "the device came back";
  npd = Npd(**daemon, &status);
  EXPECT_EQ(status, 0) << npd;
  EXPECT_EQ((*daemon)->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
