// Fault injection below the whole daemon pipeline (sysfs reader -> Monitor -> exporter), with
// scrapers hitting the real HTTP endpoint throughout: every read error the kernel can return, and
// devices vanishing at every point of a poll. Nothing crashes, every scrape succeeds, what was not
// faulted is reported exactly as before, and once the fault clears nothing of the final state is
// lost. docs/reliability.md, "Failure model".
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>

#include "support/fault_injecting_file_system.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/scrape_storm.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

constexpr int kRails = 4;
constexpr uint32_t kSlots = 32;

// The lines of an exposition that name `device` (device="mlx5_2").
std::string LinesOfDevice(const std::string& exposition, const std::string& device) {
  std::istringstream lines(exposition);
  std::ostringstream out;
  std::string line;
  const std::string label = "device=\"" + device + "\"";
  while (std::getline(lines, line))
    if (line.find(label) != std::string::npos) out << line << "\n";
  return out.str();
}

// A device's presence series outlives the device (rocewatch_device_missing: 1 once a poll saw its
// ports gone, 0 while present or when a failed read under it gave no verdict). SplitPresence
// moves that line of `lines` (a device's lines) into `presence` and returns the others.
std::string SplitPresence(const std::string& lines, std::string& presence) {
  std::istringstream in(lines);
  std::ostringstream out;
  std::string line;
  presence.clear();
  while (std::getline(in, line)) {
    if (line.rfind("rocewatch_device_missing{", 0) == 0)
      presence += line + "\n";
    else
      out << line << "\n";
  }
  return out.str();
}

// The lines naming no device, or another device than `device`. The LLDP receivers follow the
// RoCE ports' netdevs (by netdev, not device): those of `device` go with its ports, so they are
// left out. So are the lines of `netdev` (the device's netdev, when given): its link-quality
// state comes and goes with the device at the ethtool component's own cadence.
std::string LinesNotOfDevice(const std::string& exposition, const std::string& device,
                             const std::string& netdev = "") {
  std::istringstream lines(exposition);
  std::ostringstream out;
  std::string line;
  const std::string label = "device=\"" + device + "\"";
  const std::string netdev_label = "netdev=\"" + netdev + "\"";
  while (std::getline(lines, line))
    if (line.find(label) == std::string::npos && line.find("rocewatch_rdma_devices") != 0 &&
        line.rfind("rocewatch_lldp_receiving{", 0) != 0 &&
        (netdev.empty() || line.find(netdev_label) == std::string::npos))
      out << line << "\n";
  return out.str();
}

class SysfsFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(root_, RailNode(kRails, kSlots)).ok());
    ASSERT_TRUE(daemon_.Start().ok());
    baseline_ = StableScrape();
    ASSERT_NE(baseline_.find("rocewatch_gid_info"), std::string::npos);
    storm_ = std::make_unique<ScrapeStorm>(daemon_.port(), 4, std::chrono::milliseconds(10));
  }
  void TearDown() override {
    storm_->Stop();
    EXPECT_EQ(storm_->failed(), 0u) << ::testing::PrintToString(storm_->failures());
    EXPECT_GT(storm_->succeeded(), 0u);
  }

  std::string Scrape() {
    auto response = HttpGet("127.0.0.1", daemon_.port(), "/metrics");
    EXPECT_TRUE(response.ok() && response->status == 200);
    return response.ok() ? response->body : std::string();
  }
  std::string StableScrape() { return StableExposition(Scrape()); }
  double SysfsErrors() {
    return FindSample(Scrape(), R"(rocewatch_source_errors_total{source="sysfs"})").value_or(0);
  }
  std::string DevDir(const std::string& device) const {
    return root_ + "/class/infiniband/" + device;
  }

  TempDir dir_;
  const std::string root_ = dir_.path() + "/sys";
  PosixFileSystem posix_;
  FaultInjectingFileSystem fs_{&posix_};
  InProcessDaemon daemon_{fs_, root_};
  std::string baseline_;
  std::unique_ptr<ScrapeStorm> storm_;
};

struct ReadFault {
  const char* what;
  std::string path;  // below class/infiniband/mlx5_1
  bool prefix;       // the path and everything below it
  int sys_errno;
  bool counted;  // the failure shows in rocewatch_source_errors_total{source="sysfs"}
  bool visible;  // the attribute is exported (fw_ver is not; GID ndevs stand in for device/net)
};

TEST_F(SysfsFaultsTest, EveryReadErrorOfOneDeviceLeavesTheOthersIntactAndHealsCompletely) {
  const std::vector<ReadFault> faults = {
      {"empty slot's type (EINVAL)", "ports/1/gid_attrs/types/3", false, EINVAL, true, true},
      {"GID ndev EIO", "ports/1/gid_attrs/ndevs/2", false, EIO, true, true},
      {"GID value EACCES", "ports/1/gids/3", false, EACCES, true, true},
      {"gids/ unlistable", "ports/1/gids", false, EIO, true, true},
      {"data counter EIO", "ports/1/counters/port_xmit_data", false, EIO, true, true},
      {"hw_counters/ EACCES", "ports/1/hw_counters", false, EACCES, true, true},
      {"port state EINVAL", "ports/1/state", false, EINVAL, true, true},
      {"fw_ver EACCES", "fw_ver", false, EACCES, true, false},
      {"netdev links EIO", "device/net", false, EIO, true, false},
      {"whole port EIO", "ports/1", true, EIO, true, true},
      {"whole device EIO", "", true, EIO, true, true},
      {"whole device EACCES", "", true, EACCES, true, true},
      {"device vanished (ENOENT)", "", true, ENOENT, false, true},
  };
  for (const ReadFault& fault : faults) {
    SCOPED_TRACE(fault.what);
    const std::string path =
        fault.path.empty() ? DevDir("mlx5_1") : DevDir("mlx5_1") + "/" + fault.path;
    double errors_before = SysfsErrors();
    if (fault.prefix) {
      fs_.FailPrefix(path, fault.sys_errno);
    } else {
      fs_.FailPath(path, fault.sys_errno);
    }
    ASSERT_TRUE(daemon_.Poll().ok());
    std::string faulted = StableScrape();
    // mlx5_1's netdev (RailNode: mlx5_R on ens<R+1>f0np0) goes with it: a device the poll cannot
    // read is not an RNIC for the ethtool component's next pass of its own cadence (every 10 s,
    // met under ASan once a pass of this test took longer).
    EXPECT_EQ(LinesNotOfDevice(faulted, "mlx5_1", "ens2f0np0"),
              LinesNotOfDevice(baseline_, "mlx5_1", "ens2f0np0"));
    if (fault.visible) {
      EXPECT_NE(LinesOfDevice(faulted, "mlx5_1"), LinesOfDevice(baseline_, "mlx5_1"));
    }
    if (fault.counted) {
      EXPECT_GT(SysfsErrors(), errors_before);
    } else {
      EXPECT_EQ(SysfsErrors(), errors_before);
    }

    fs_.ClearFailures();
    ASSERT_TRUE(daemon_.Poll().ok());
    EXPECT_EQ(LinesOfDevice(StableScrape(), "mlx5_1"), LinesOfDevice(baseline_, "mlx5_1"))
        << "the device heals at the first poll";
    // Its netdev's link-quality lines come back at the ethtool component's next pass: polled
    // until the whole exposition is back, bounded.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string whole = StableScrape();
    while (whole != baseline_ && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ASSERT_TRUE(daemon_.Poll().ok());
      whole = StableScrape();
    }
    EXPECT_EQ(whole, baseline_);
  }
}

TEST_F(SysfsFaultsTest, AnUnreadableRootFailsThePollButKeepsServingTheLastState) {
  const std::string root_listing_class = root_ + "/class/infiniband";
  for (int sys_errno : {EIO, EACCES, ENOENT}) {
    SCOPED_TRACE(sys_errno);
    fs_.FailPath(root_, sys_errno);
    EXPECT_FALSE(daemon_.Poll().ok());
    EXPECT_EQ(StableScrape(), baseline_);  // the last complete snapshot, not an empty node
    fs_.ClearFailures();
    fs_.FailPath(root_listing_class, sys_errno == ENOENT ? EIO : sys_errno);
    EXPECT_FALSE(daemon_.Poll().ok());
    EXPECT_EQ(StableScrape(), baseline_);
    fs_.ClearFailures();
  }
  ASSERT_TRUE(daemon_.Poll().ok());
  EXPECT_EQ(StableScrape(), baseline_);
}

// Forwards to a FileSystem and runs a hook before the n-th ReadFile (0-based) of a pass: a device
// removed from the real tree at that moment has vanished mid-poll, at that exact read.
// Thread-safe: the daemon reads on reading threads of its own.
class HookedFileSystem final : public FileSystem {
 public:
  explicit HookedFileSystem(const FileSystem& base) : base_(base) {}
  void HookRead(size_t n, std::function<void()> hook) {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_ = 0;
    hook_at_ = n;
    hook_ = std::move(hook);
  }
  size_t reads() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return reads_;
  }

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override {
    std::function<void()> hook;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (reads_++ == hook_at_) hook = std::exchange(hook_, nullptr);
    }
    if (hook) hook();
    return base_.ReadFile(path, max_bytes);
  }
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override {
    return base_.ListDir(path);
  }
  StatusOr<std::string> ReadLink(const std::string& path) const override {
    return base_.ReadLink(path);
  }
  bool IsDirectory(const std::string& path) const override { return base_.IsDirectory(path); }

 private:
  const FileSystem& base_;
  mutable std::mutex mutex_;
  mutable size_t reads_ = 0;            // GUARDED_BY(mutex_)
  size_t hook_at_ = SIZE_MAX;           // GUARDED_BY(mutex_)
  mutable std::function<void()> hook_;  // GUARDED_BY(mutex_)
};

TEST(SysfsVanishingTest, ADeviceRemovedAtAnyReadOfAPollIsAbsentOrCompleteNeverPartial) {
  TempDir dir;
  const std::string root = dir.path() + "/sys";
  ASSERT_TRUE(WriteSysfsFixture(root, RailNode(kRails, kSlots)).ok());
  PosixFileSystem posix;
  HookedFileSystem fs(posix);
  InProcessDaemon daemon(fs, root);
  // The hook removes a whole device inside one read: on a loaded machine under a sanitizer that can
  // outlast the default deadline, and a read taken as stuck restarts the poll on a new reading
  // thread (stuck_sysfs_read_test covers that). This test is about devices vanishing, not stalls.
  daemon.set_read_deadline(std::chrono::seconds(60));
  ASSERT_TRUE(daemon.Start().ok());
  ScrapeStorm storm(daemon.port(), 4, std::chrono::milliseconds(10));
  auto scrape = [&] {
    auto response = HttpGet("127.0.0.1", daemon.port(), "/metrics");
    return response.ok() ? StableExposition(response->body) : std::string();
  };
  const std::string baseline = scrape();
  const std::string victim = "mlx5_2";
  const std::string victim_netdev = "ens3f0np0";  // RailNode: mlx5_R on ens<R+1>f0np0
  const std::string victim_lines = LinesOfDevice(baseline, victim);
  ASSERT_FALSE(victim_lines.empty());
  const std::string presence_line = "rocewatch_device_missing{device=\"" + victim +
                                    "\",port=\"1\",netdev=\"" + victim_netdev + "\"}";
  std::string baseline_presence;
  SplitPresence(victim_lines, baseline_presence);
  ASSERT_EQ(baseline_presence, presence_line + " 0\n");

  fs.HookRead(SIZE_MAX, nullptr);
  ASSERT_TRUE(daemon.Poll().ok());
  const size_t reads_per_poll = fs.reads();
  ASSERT_GT(reads_per_poll, 100u);

  int absent = 0, complete = 0;
  // About 40 points spread over the whole pass: before, during and after the victim's reads.
  const size_t step = std::max<size_t>(1, reads_per_poll / 40);
  for (size_t n = 0; n < reads_per_poll; n += step) {
    SCOPED_TRACE("removed before read " + std::to_string(n) + " of " +
                 std::to_string(reads_per_poll));
    fs.HookRead(n, [&] { std::filesystem::remove_all(root + "/class/infiniband/" + victim); });
    ASSERT_TRUE(daemon.Poll().ok());
    std::string seen = scrape();
    EXPECT_EQ(LinesNotOfDevice(seen, victim, victim_netdev),
              LinesNotOfDevice(baseline, victim, victim_netdev));
    std::string lines = LinesOfDevice(seen, victim), presence;
    if (SplitPresence(lines, presence).empty()) {
      // Absent: only its presence series is left, 1 (seen gone) or 0 (a read under it failed
      // while it went: no verdict).
      EXPECT_TRUE(presence == presence_line + " 1\n" || presence == presence_line + " 0\n")
          << presence;
      ++absent;
    } else {
      EXPECT_EQ(lines, victim_lines) << "a partial device was published";
      ++complete;
    }
    // The device comes back (a driver reload): the next poll reports all of it again.
    ASSERT_TRUE(WriteSysfsFixture(root, {RailDevice(2, kSlots)}).ok());
    fs.HookRead(SIZE_MAX, nullptr);
    ASSERT_TRUE(daemon.Poll().ok());
    EXPECT_EQ(LinesOfDevice(scrape(), victim), victim_lines) << "the device is back whole";
    // What is keyed by the device's netdev, not by the device (its link-quality state), comes
    // from the ethtool component, which takes up a returning netdev on a later poll of its own
    // cadence (every 10 s: seen under ASan, where a pass is slow enough to meet one): polled until
    // the whole exposition is back, bounded.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string whole = scrape();
    while (whole != baseline && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ASSERT_TRUE(daemon.Poll().ok());
      whole = scrape();
    }
    EXPECT_EQ(whole, baseline);
  }
  EXPECT_GT(absent, 0);
  EXPECT_GT(complete, 0);
  storm.Stop();
  EXPECT_EQ(storm.failed(), 0u) << ::testing::PrintToString(storm.failures());
}

}  // namespace
}  // namespace rocewatch
