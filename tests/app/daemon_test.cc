// The daemon's wiring (Daemon, lib/daemon/run_command.h) in-process on a fake host
// (tests/support/fake_host_env.h): what `rocewatch run` does at start and stop, without the binary.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "daemon/run_command.h"
#include "support/fake_host_env.h"
#include "support/fake_state_file_writer.h"
#include "support/netlink_builders.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

class DaemonTest : public ::testing::Test {
 protected:
  DaemonTest() {
    EXPECT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(2, 16)).ok());
    host_.netlink().links = {MakeLink(2, "ens1f0np0", true), MakeLink(3, "ens2f0np0", true)};
    host_.netlink().addresses = {MakeAddress(2, "10.0.0.2/24"), MakeAddress(3, "10.0.1.2/24")};
    options_.common.paths = HostPaths::ForRoots(dir_.path());
    options_.common.gid_source = GidSourceChoice::kSysfs;
    options_.listen = ListenAddress{"127.0.0.1", 0};
    options_.api_socket.clear();
    options_.state_file = dir_.path() + "/state.json";
  }
  StatusOr<std::unique_ptr<Daemon>> Start() {
    return Daemon::Start(host_.env(), options_, Daemon::Resources{.kept_descriptors = 64});
  }

  TempDir dir_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};
  RunOptions options_;
};

TEST_F(DaemonTest, StartsServingItsFirstSnapshotAndTellsTheServiceManager) {
  StatusOr<std::unique_ptr<Daemon>> daemon = Start();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EXPECT_EQ((*daemon)->monitor().latest_snapshot().devices.size(), 2u);
  EXPECT_GT((*daemon)->port(), 0);
  EXPECT_STREQ((*daemon)->gid_source_name(), "sysfs");
  EXPECT_EQ(host_.rtnetlink_sources(), 1);  // the netlink component's, from the environment
  ASSERT_EQ(host_.notifier().notifications.size(), 1u);
  EXPECT_EQ(host_.notifier().notifications[0], "READY=1\nSTATUS=serving 2 RDMA device(s) on port " +
                                                   std::to_string((*daemon)->port()));
}

TEST_F(DaemonTest, RunReturnsWhenTheLoopStopsAndSaysStopping) {
  StatusOr<std::unique_ptr<Daemon>> daemon = Start();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EventLoop& loop = (*daemon)->loop();
  loop.ScheduleAfter(Duration::zero(), [&loop] { loop.Stop(); });
  (*daemon)->Run();
  EXPECT_EQ(host_.notifier().notifications.back(), "STOPPING=1");
}

TEST_F(DaemonTest, ASecondDaemonOnTheSameStateFileDoesNotStart) {
  StatusOr<std::unique_ptr<Daemon>> first = Start();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  StatusOr<std::unique_ptr<Daemon>> second = Start();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
}

// The state file is written and locked through the host environment, like every other touchpoint.
TEST_F(DaemonTest, TheStateFileIsWrittenAndLockedThroughTheHostEnvironment) {
  // A state file is written only with the boot id it is stamped with.
  std::filesystem::create_directories(dir_.path() + "/proc/sys/kernel/random");
  std::ofstream(dir_.path() + "/proc/sys/kernel/random/boot_id")
      << "3f1c6a52-7e0d-4b8e-9a51-0c2d4e6f8a10\n";
  FakeStateFileWriter writer;
  host_.env().state_writer = &writer;
  std::vector<std::string> locked;
  host_.env().lock_state_file = [&](const std::string& path) {
    locked.push_back(path);
    return StateFileLock::Acquire(path);
  };
  {
    StatusOr<std::unique_ptr<Daemon>> daemon = Start();
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    EventLoop& loop = (*daemon)->loop();
    loop.ScheduleAfter(Duration::zero(), [&loop] { loop.Stop(); });
    (*daemon)->Run();  // the components flush at stop
  }
  EXPECT_EQ(locked, std::vector<std::string>{options_.state_file});
  EXPECT_GE(writer.writes, 1);
  EXPECT_EQ(writer.files.count(options_.state_file), 1u);
  EXPECT_NE(::access(options_.state_file.c_str(), F_OK), 0) << "written to disk anyway";

  host_.env().lock_state_file = [](const std::string&) -> StatusOr<std::unique_ptr<StateFileLock>> {
    return Status::Unavailable("state file locked by pid 4242");
  };
  StatusOr<std::unique_ptr<Daemon>> refused = Start();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), "state file locked by pid 4242");
}

TEST_F(DaemonTest, AnUnreadableSysfsIsAOneLineReasonAndNothingServed) {
  options_.common.paths = HostPaths::ForRoots(dir_.path() + "/nonexistent");
  options_.state_file.clear();
  StatusOr<std::unique_ptr<Daemon>> daemon = Start();
  ASSERT_FALSE(daemon.ok());
  EXPECT_NE(daemon.status().message().find("cannot read the RDMA devices"), std::string::npos)
      << daemon.status().message();
  EXPECT_EQ(daemon.status().message().find('\n'), std::string::npos);
  EXPECT_TRUE(host_.notifier().notifications.empty());
}

}  // namespace
}  // namespace rocewatch
