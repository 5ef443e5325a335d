// Every signal rocewatch decides on (daemon/signal_policy.h), sent to the real daemon: the ignored
// ones are logged and leave it serving, SIGTERM still stops it with exit 0, SIGQUIT and the fault
// signals left to their default kill it.
#include "daemon/signal_policy.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <thread>

#include "support/daemon_process.h"
#include "support/sanitizer.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

bool WaitForLog(const DaemonProcess& daemon, const std::string& text) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < end) {
    if (daemon.ReadLog().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(SignalPolicyTest, IgnoredSignalsAreLoggedAndTheDaemonKeepsServing) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(1)).ok());
  auto daemon = DaemonProcess::Start({"--host-root", dir.path(), "--state-file", ""});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  std::vector<int> signals = {SIGHUP, SIGUSR1,   SIGUSR2, SIGALRM,  SIGVTALRM,    SIGPROF, SIGIO,
                              SIGPWR, SIGSTKFLT, SIGXFSZ, SIGRTMIN, SIGRTMIN + 5, SIGRTMAX};
  for (int signo : signals) {
    SCOPED_TRACE(SignalName(signo));
    ASSERT_TRUE((*daemon)->Signal(signo));
    EXPECT_TRUE(WaitForLog(**daemon, "received " + SignalName(signo))) << (*daemon)->ReadLog();
    auto health = (*daemon)->Get("/healthz");
    ASSERT_TRUE(health.ok()) << (*daemon)->ReadLog();
    EXPECT_EQ(health->status, 200);
  }
  ASSERT_TRUE((*daemon)->Signal(SIGPIPE));  // ignored, not logged
  auto health = (*daemon)->Get("/healthz");
  ASSERT_TRUE(health.ok());
  ASSERT_TRUE((*daemon)->Signal(SIGTERM));
  std::optional<int> status = (*daemon)->WaitForExit(std::chrono::seconds(5));
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(*status, 0);
  EXPECT_NE((*daemon)->ReadLog().find("received SIGTERM, stopping"), std::string::npos);
}

// No core files from the daemons this test kills (they inherit the limit), wherever it runs.
class NoCoreFiles {
 public:
  NoCoreFiles() {
    if (::getrlimit(RLIMIT_CORE, &saved_) != 0) return;
    const rlimit none{0, saved_.rlim_max};
    ::setrlimit(RLIMIT_CORE, &none);
  }
  ~NoCoreFiles() { ::setrlimit(RLIMIT_CORE, &saved_); }

 private:
  rlimit saved_{};
};

// SIGQUIT and the fault signals are left to their default on purpose (docs/reliability.md,
// "Signals"): each one kills the daemon by that signal, and none is logged as received.
TEST(SignalPolicyTest, SigquitAndTheFaultSignalsKeepTheirDefaultAction) {
  NoCoreFiles no_core_files;
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(1)).ok());
  for (int signo : {SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGSYS, SIGXCPU}) {
    SCOPED_TRACE(SignalName(signo));
    EXPECT_EQ(ActionFor(signo), SignalAction::kDefault);
    // Sanitizers install their own handlers for these (a report, then their own exit status).
    if (kUnderSanitizer && (signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE)) continue;
    auto daemon = DaemonProcess::Start({"--host-root", dir.path(), "--state-file", ""});
    ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
    ASSERT_TRUE((*daemon)->Signal(signo));
    std::optional<int> status = (*daemon)->WaitForExit(std::chrono::seconds(5));
    ASSERT_TRUE(status.has_value()) << "still running 5 s after the signal";
    EXPECT_EQ(*status, -signo) << (*daemon)->ReadLog();
    EXPECT_EQ((*daemon)->ReadLog().find("received " + SignalName(signo)), std::string::npos);
  }
}

TEST(SignalPolicyTest, StaleTemporaryStateFilesAreRemovedAtStart) {
  TempDir dir;
  ASSERT_TRUE(WriteSysfsFixture(dir.path() + "/sys", RailNode(1)).ok());
  // pid 2^22 + 1 is above the default pid_max range of most hosts; checked dead below.
  const std::string stale = dir.WriteFile("state/state.json.tmp.4194305", "torn");
  ASSERT_NE(::kill(4194305, 0), 0);
  auto daemon = DaemonProcess::Start(
      {"--host-root", dir.path(), "--state-file", dir.path() + "/state/state.json"});
  ASSERT_TRUE(daemon.ok()) << daemon.status().ToString();
  EXPECT_NE(::access(stale.c_str(), F_OK), 0) << (*daemon)->ReadLog();
  EXPECT_NE((*daemon)->ReadLog().find("removed state.json.tmp.4194305"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
