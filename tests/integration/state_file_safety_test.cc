// The state file survives everything that is not a complete, newer state: a second daemon on the
// same file is refused (naming the first one's pid), a start that fails leaves the file as it
// was, an unreadable boot id or a file of a newer schema leaves it untouched for the whole run;
// SIGHUP is logged and ignored; `--state-file=` (empty) disables persistence instead of taking the
// next argument as the file name.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "support/daemon_process.h"
#include "support/golden.h"
#include "support/http_client.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class StateFileSafetyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", ExampleEightRailNode()).ok());
    dir_.WriteFile("proc/sys/kernel/random/boot_id", "5c0e2f3a-1b2c-4d5e-8f90-0123456789ab\n");
    dir_.MakeDir("var/lib");
    state_ = dir_.path() + "/var/lib/rocewatch/state.json";
  }
  StatusOr<std::unique_ptr<DaemonProcess>> StartDaemon(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--host-root", dir_.path(),  "--state-file",
                                     state_,        "--interval", "200ms"};
    args.insert(args.end(), extra.begin(), extra.end());
    return DaemonProcess::Start(args);
  }
  // A good state file written by a first daemon.
  std::string WriteGoodState() {
    auto daemon = StartDaemon();
    EXPECT_TRUE(daemon.ok()) << daemon.status().ToString();
    if (daemon.ok()) {
      EXPECT_EQ((*daemon)->Stop(), 0);
    }
    std::string content = ReadAll(state_);
    EXPECT_NE(content.find("0000:0000:0000:0000:0000:ffff:0a00:0002"), std::string::npos);
    return content;
  }
  // Polls /metrics until `series` reaches `value` (at most 10 s).
  static bool WaitFor(DaemonProcess& daemon, const std::string& series, double value) {
    for (int i = 0; i < 100; ++i) {
      auto metrics = daemon.Scrape();
      if (metrics.ok() && FindSample(*metrics, series).value_or(-1) >= value) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  std::string Binary() const { return ROCEWATCH_BINARY; }

  TempDir dir_;
  std::string state_;
};

TEST_F(StateFileSafetyTest, ASecondDaemonOnTheSameStateFileIsRefusedNamingTheFirst) {
  auto first = StartDaemon();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const std::string before = ReadAll(state_);
  auto second = StartDaemon();
  ASSERT_FALSE(second.ok()) << "two daemons ran on one state file";
  EXPECT_NE(second.status().message().find("in use by another rocewatch (pid " +
                                           std::to_string((*first)->pid()) + ","),
            std::string::npos)
      << second.status().message();
  EXPECT_EQ(ReadAll(state_), before);
  EXPECT_EQ((*first)->Stop(), 0);
  auto third = StartDaemon();  // the lock died with the first daemon
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ((*third)->Stop(), 0);
}

TEST_F(StateFileSafetyTest, AStartThatFailsLeavesTheStateFileAsItWas) {
  const std::string good = WriteGoodState();
  // Another program holds the port: the start fails, in words, before any snapshot.
  int holder = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(holder, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(holder, 1), 0);
  socklen_t len = sizeof(addr);
  getsockname(holder, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  // The GID tables changed since: a daemon that got as far as a snapshot would write them.
  std::vector<FixtureDevice> node = ExampleEightRailNode();
  node[0] = RoceDevice("mlx5_0", "ens1f0np0", "0c:42:a1:5e:00:00", {"10.0.0.2/24", "10.0.9.2/24"});
  ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", node).ok());
  int status = 0;
  std::string out = RunCommand(Binary() + " run --host-root " + dir_.path() + " --state-file " +
                                   state_ + " --listen 127.0.0.1:" + std::to_string(port) + " 2>&1",
                               &status);
  close(holder);
  EXPECT_EQ(status, 1);
  EXPECT_NE(out.find("port " + std::to_string(port) + " is already in use"), std::string::npos)
      << out;
  EXPECT_EQ(ReadAll(state_), good);
}

TEST_F(StateFileSafetyTest, WithoutABootIdTheStateFileIsNeverReplaced) {
  const std::string good = WriteGoodState();
  std::filesystem::remove(dir_.path() + "/proc/sys/kernel/random/boot_id");
  auto daemon = StartDaemon();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EXPECT_TRUE(WaitFor(**daemon, "rocewatch_state_persistence_failures_total", 1));
  EXPECT_TRUE(WaitFor(**daemon, "rocewatch_poll_duration_seconds_count", 3));
  EXPECT_EQ((*daemon)->Stop(), 0);
  EXPECT_EQ(ReadAll(state_), good);
  EXPECT_NE((*daemon)->ReadLog().find("cannot read the kernel boot id"), std::string::npos);
}

TEST_F(StateFileSafetyTest, AStateFileOfANewerSchemaIsRefusedAndKept) {
  std::string newer = WriteGoodState();
  const size_t at = newer.find("\"schema_version\": 3");
  ASSERT_NE(at, std::string::npos);
  newer.replace(at, 19, "\"schema_version\": 7");
  dir_.WriteFile("var/lib/rocewatch/state.json", newer);
  auto daemon = StartDaemon();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EXPECT_TRUE(WaitFor(**daemon, "rocewatch_state_persistence_failures_total", 1));
  EXPECT_EQ((*daemon)->Stop(), 0);
  EXPECT_EQ(ReadAll(state_), newer);
  EXPECT_NE((*daemon)->ReadLog().find("written by a newer rocewatch (schema version 7"),
            std::string::npos)
      << (*daemon)->ReadLog();
}

TEST_F(StateFileSafetyTest, SighupIsLoggedAndIgnored) {
  auto daemon = StartDaemon();
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  ASSERT_TRUE((*daemon)->Signal(SIGHUP));
  std::string log;
  for (int i = 0; i < 100 && log.find("received SIGHUP") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    log = (*daemon)->ReadLog();
  }
  EXPECT_NE(log.find("received SIGHUP: ignored"), std::string::npos) << log;
  EXPECT_FALSE((*daemon)->WaitForExit(std::chrono::milliseconds(300)).has_value())
      << "SIGHUP killed the daemon";
  auto health = (*daemon)->Get("/healthz");
  ASSERT_TRUE(health.ok());
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ((*daemon)->Stop(), 0);
}

TEST_F(StateFileSafetyTest, AnEmptyStateFileFlagDisablesPersistence) {
  TempDir cwd;
  // As an operator types it: `--state-file=` then more flags. Run from `cwd` so that a file named
  // after the next argument would show.
  int status = 0;
  std::string out = RunCommand("cd " + cwd.path() + " && timeout --preserve-status -s TERM 3 " +
                                   Binary() + " run --host-root " + dir_.path() +
                                   " --listen 127.0.0.1:0 --state-file= --interval=100ms 2>&1",
                               &status);
  EXPECT_EQ(status, 0) << out;  // SIGTERM from timeout: a clean stop
  EXPECT_NE(out.find("persistence disabled"), std::string::npos) << out;
  EXPECT_NE(out.find("interval 100ms"), std::string::npos) << out;
  EXPECT_TRUE(std::filesystem::is_empty(cwd.path())) << "a state file appeared in the cwd";
}

}  // namespace
}  // namespace rocewatch
