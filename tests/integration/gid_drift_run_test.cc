// `rocewatch run` sees a GID drift caused by a NetworkManager-style flap on a veth "RNIC netdev" in
// a network namespace. The RDMA side is simulated: the test plays the kernel, updating a fixture
// sysfs tree (SimulatedGidTable -> WriteSysfsFixture) as the address goes and returns, with a live
// QP's reference held on the RoCE v2 entry. Needs root and `ip netns`; skips cleanly otherwise.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "support/daemon_process.h"
#include "support/golden.h"
#include "support/simulated_gid_table.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr char kAddress[] = "10.77.0.1/24";
constexpr char kMac[] = "02:00:00:00:77:01";

bool Sh(const std::string& command) {
  int status = 0;
  RunCommand(command + " >/dev/null 2>&1", &status);
  return status == 0;
}

// A network namespace holding a veth pair: rnic0 (the RNIC netdev) and its peer, whose state
// gives rnic0 carrier. Removed on destruction.
class VethNamespace {
 public:
  VethNamespace() : name_("rwgid" + std::to_string(getpid())) {
    Sh("ip netns del " + name_);
    ok_ = Sh("ip netns add " + name_) && Exec("ip link set lo up") &&
          Exec("ip link add rnic0 type veth peer name rnicpeer0") &&
          Exec(std::string("ip link set rnic0 address ") + kMac) && Exec("ip link set rnic0 up") &&
          Exec("ip link set rnicpeer0 up") &&
          Exec(std::string("ip addr add ") + kAddress + " dev rnic0");
  }
  ~VethNamespace() { Sh("ip netns del " + name_); }
  bool ok() const { return ok_; }
  const std::string& name() const { return name_; }
  bool Exec(const std::string& command) { return Sh("ip netns exec " + name_ + " " + command); }

 private:
  std::string name_;
  bool ok_ = false;
};

class GidDriftRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root (network namespaces)";
    netns_ = std::make_unique<VethNamespace>();
    if (!netns_->ok()) GTEST_SKIP() << "cannot create a network namespace with veth links";
    root_.WriteFile("proc/sys/kernel/random/boot_id", "6b1c5e4e-0000-4000-8000-000000000001\n");
    table_.AddAddress(kAddress);
    PublishTables();
  }

  // The simulated kernel's GID work: the port's table as sysfs shows it.
  void PublishTables() {
    FixtureDevice device;
    device.name = "mlx5_0";
    device.ports = {table_.ToFixturePort()};
    ASSERT_TRUE(WriteSysfsFixture(root_.path() + "/sys", {device}).ok());
  }

  // Scrapes until the drift counter reads `want` or `bound` passes; returns the time it took.
  std::optional<milliseconds> WaitForDrift(DaemonProcess& daemon, double want, milliseconds bound,
                                           Clock::time_point since) {
    const std::string series =
        "rocewatch_gid_drift_events_total{device=\"mlx5_0\",port=\"1\",netdev=\"rnic0\"}";
    while (Clock::now() - since < bound) {
      StatusOr<std::string> body = daemon.Scrape();
      if (body.ok() && FindSample(*body, series) == want)
        return std::chrono::duration_cast<milliseconds>(Clock::now() - since);
      std::this_thread::sleep_for(milliseconds(20));
    }
    return std::nullopt;
  }

  // Scrapes until the daemon has published a poll taken after `unix_seconds` (so it has read the
  // tables as they are now), instead of sleeping a fixed time.
  static bool WaitForPollAfter(DaemonProcess& daemon, double unix_seconds) {
    for (const Clock::time_point start = Clock::now(); Clock::now() - start < milliseconds(10000);
         std::this_thread::sleep_for(milliseconds(20))) {
      StatusOr<std::string> body = daemon.Scrape();
      if (body.ok() &&
          FindSample(*body, "rocewatch_last_poll_timestamp_seconds").value_or(0) > unix_seconds)
        return true;
    }
    return false;
  }
  static double UnixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  std::unique_ptr<VethNamespace> netns_;
  TempDir root_;
  SimulatedGidTable table_{1, "rnic0", kMac, 32};
};

TEST_F(GidDriftRunTest, NetworkManagerFlapWithALiveQpShowsInMetricsWithinOneSecond) {
  // Polls every 500 ms: until the netlink listener turns the address event into a snapshot (after
  // the settle delay), the periodic poll is what sees the move, and a 1 s poll alone could take up
  // to 1 s plus the scrape.
  auto daemon =
      DaemonProcess::Start({"--host-root", root_.path(), "--gid-source", "sysfs", "--interval",
                            "500ms", "--state-file", root_.path() + "/state.json"},
                           netns_->name());
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  ASSERT_TRUE(WaitForDrift(**daemon, 0, milliseconds(3000), Clock::now()))
      << "the baseline is exported with 0 drifts\n"
      << (*daemon)->ReadLog();

  table_.TakeReference(3);  // a job's QP uses the RoCE v2 GID at index 3

  // Carrier lost: NetworkManager removes the address; the kernel deletes the GIDs (3 stays held).
  ASSERT_TRUE(netns_->Exec("ip link set rnicpeer0 down"));
  ASSERT_TRUE(netns_->Exec(std::string("ip addr del ") + kAddress + " dev rnic0"));
  table_.RemoveAddress(kAddress);
  PublishTables();
  ASSERT_TRUE(WaitForPollAfter(**daemon, UnixNow())) << "the daemon saw the table without it";

  // Carrier back: the address returns, the v2 GID lands at index 4.
  ASSERT_TRUE(netns_->Exec("ip link set rnicpeer0 up"));
  ASSERT_TRUE(netns_->Exec(std::string("ip addr add ") + kAddress + " dev rnic0"));
  const Clock::time_point returned = Clock::now();
  table_.AddAddress(kAddress);
  PublishTables();
  std::optional<milliseconds> seen = WaitForDrift(**daemon, 1, milliseconds(5000), returned);
  ASSERT_TRUE(seen) << (*daemon)->ReadLog();
  EXPECT_LT(seen->count(), 1000) << "drift visible " << seen->count()
                                 << " ms after the address returned";
  RecordProperty("drift_visible_ms", static_cast<int>(seen->count()));
  std::cerr << "drift visible in /metrics " << seen->count() << " ms after the address returned\n";

  StatusOr<std::string> body = (*daemon)->Scrape();
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(FindSample(*body, "rocewatch_gid_holes{device=\"mlx5_0\",port=\"1\"}"), 1.0);
  EXPECT_NE((*daemon)->ReadLog().find("gid_drift device=mlx5_0 port=1 netdev=rnic0 "
                                      "gid=0000:0000:0000:0000:0000:ffff:0a4d:0001 type=roce_v2 "
                                      "old_index=3 new_index=4"),
            std::string::npos)
      << (*daemon)->ReadLog();

  // Restart in the same boot: the drift count survives, and nothing new is counted.
  EXPECT_EQ((*daemon)->Stop(), 0);
  auto again = DaemonProcess::Start({"--host-root", root_.path(), "--gid-source", "sysfs",
                                     "--state-file", root_.path() + "/state.json"},
                                    netns_->name());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(WaitForDrift(**again, 1, milliseconds(3000), Clock::now())) << (*again)->ReadLog();
}

}  // namespace
}  // namespace rocewatch
