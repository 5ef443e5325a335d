// The state directory read-only or full (a node's /var filling up, a read-only remount after a
// disk error): persistence fails, `rocewatch run` says so once in its log and in
// rocewatch_state_persistence_failures_total / rocewatch_source_errors_total{source="state"},
// goes on serving everything else, and writes the state again as soon as it can. Each case uses a
// small tmpfs of its own (root: mount), unmounted at the end even on failure.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "support/daemon_process.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// A tmpfs of `size` mounted on a fresh directory; unmounted on destruction.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(const std::string& size) {
    path_ = dir_.MakeDir("state");
    mounted_ = mount("tmpfs", path_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~SmallTmpfs() {
    if (mounted_) umount2(path_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& path() const { return path_; }
  bool Remount(bool read_only) {
    return mount(nullptr, path_.c_str(), nullptr, MS_REMOUNT | (read_only ? MS_RDONLY : 0),
                 nullptr) == 0;
  }

 private:
  TempDir dir_;
  std::string path_;
  bool mounted_ = false;
};

class StateDirFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root (mount)";
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", ExampleEightRailNode()).ok());
    dir_.WriteFile("proc/sys/kernel/random/boot_id", "5c0e2f3a-1b2c-4d5e-8f90-0123456789ab\n");
  }
  StatusOr<std::unique_ptr<DaemonProcess>> StartDaemon(const std::string& state_file) {
    return DaemonProcess::Start({"--host-root", dir_.path(), "--state-file", state_file,
                                 "--interval", "200ms", "--gid-backstop",
                                 "200ms"});  // GID changes here come without netlink events
  }
  // Polls /metrics until `series` reaches at least `value` (at most 10 s).
  static double WaitFor(DaemonProcess& daemon, const std::string& series, double value) {
    double seen = -1;
    for (int i = 0; i < 100 && seen < value; ++i) {
      auto metrics = daemon.Scrape();
      if (metrics.ok()) seen = FindSample(*metrics, series).value_or(-1);
      if (seen < value) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return seen;
  }
  // Changes the example node's GID table (mlx5_0 gains an address), so there is state to save.
  void ChangeTheGidTables() {
    std::vector<FixtureDevice> node = ExampleEightRailNode();
    node[0] =
        RoceDevice("mlx5_0", "ens1f0np0", "0c:42:a1:5e:00:00", {"10.0.0.2/24", "10.0.9.2/24"});
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", node).ok());
  }
  TempDir dir_;
};

void ExpectServing(DaemonProcess& daemon) {
  auto health = daemon.Get("/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
  auto metrics = daemon.Scrape();
  ASSERT_TRUE(metrics.ok());
  EXPECT_EQ(FindSample(*metrics, "rocewatch_rdma_devices"), 8);
}

TEST_F(StateDirFaultsTest, AReadOnlyStateDirectoryIsCountedLoggedOnceAndHealed) {
  SmallTmpfs tmpfs("1m");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here";
  ASSERT_TRUE(tmpfs.Remount(/*read_only=*/true));
  const std::string state = tmpfs.path() + "/state.json";
  auto daemon = StartDaemon(state);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EXPECT_GE(WaitFor(**daemon, "rocewatch_state_persistence_failures_total", 1), 1);
  EXPECT_GE(WaitFor(**daemon, R"(rocewatch_source_errors_total{source="state"})", 1), 1);
  ExpectServing(**daemon);

  ASSERT_TRUE(tmpfs.Remount(/*read_only=*/false));
  ChangeTheGidTables();
  for (int i = 0; i < 100 && !std::filesystem::exists(state); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(std::filesystem::exists(state)) << "the state is written once the disk allows it";
  EXPECT_EQ((*daemon)->Stop(), 0);
  std::string log = (*daemon)->ReadLog();
  size_t first = log.find("cannot write the GID state");
  ASSERT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find("cannot write the GID state", first + 1), std::string::npos)
      << "one warning per failure episode";
  std::ifstream in(state);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(content.find("0000:0000:0000:0000:0000:ffff:0a00:0902"), std::string::npos)
      << "the final state is the one on disk";
}

TEST_F(StateDirFaultsTest, AFullStateDirectoryIsCountedAndTheOldFileStaysWhole) {
  SmallTmpfs tmpfs("64k");
  if (!tmpfs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here";
  const std::string state = tmpfs.path() + "/state.json";
  {  // A first run writes a good state file.
    auto daemon = StartDaemon(state);
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    EXPECT_EQ((*daemon)->Stop(), 0);
  }
  ASSERT_TRUE(std::filesystem::exists(state));
  const auto good_size = std::filesystem::file_size(state);
  {  // Fill the file system to the last byte.
    std::ofstream filler(tmpfs.path() + "/filler", std::ios::binary);
    std::string block(4096, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  auto daemon = StartDaemon(state);
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  ChangeTheGidTables();  // a state that no longer fits
  EXPECT_GE(WaitFor(**daemon, "rocewatch_state_persistence_failures_total", 1), 1);
  ExpectServing(**daemon);
  EXPECT_EQ(std::filesystem::file_size(state), good_size) << "never a torn file";

  std::filesystem::remove(tmpfs.path() + "/filler");
  for (int i = 0; i < 100 && std::filesystem::file_size(state) == good_size; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_NE(std::filesystem::file_size(state), good_size) << "written again once there is room";
  EXPECT_EQ((*daemon)->Stop(), 0);
}

}  // namespace
}  // namespace rocewatch
