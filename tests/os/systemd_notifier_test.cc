// SystemdNotifier against a real $NOTIFY_SOCKET: a datagram socket standing in for systemd; and
// when it loads libsystemd (only under a service manager).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

#include "os/service_notifier.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

// Sets an environment variable for the life of the object, then restores the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// The service manager's end: an AF_UNIX datagram socket bound in a temporary directory.
class NotifySocket {
 public:
  explicit NotifySocket(const std::string& path) : path_(path) {
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    bound_ = fd_ >= 0 && bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~NotifySocket() {
    if (fd_ >= 0) close(fd_);
  }
  bool bound() const { return bound_; }
  const std::string& path() const { return path_; }

  // The next datagram, or nullopt after a second without one.
  std::optional<std::string> Receive() {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 1000) != 1) return std::nullopt;
    char buffer[4096];
    ssize_t n = recv(fd_, buffer, sizeof(buffer), 0);
    if (n < 0) return std::nullopt;
    return std::string(buffer, static_cast<size_t>(n));
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool bound_ = false;
};

class SystemdNotifierTest : public ::testing::Test {
 protected:
  TempDir dir_;
  NotifySocket manager_{dir_.path() + "/notify"};
  SystemdNotifier notifier_;
};

TEST_F(SystemdNotifierTest, SendsEachNotificationAsOneDatagram) {
  ASSERT_TRUE(manager_.bound());
  ScopedEnv socket("NOTIFY_SOCKET", manager_.path());
  ASSERT_TRUE(notifier_.Notify("READY=1\nSTATUS=serving").ok());
  ASSERT_TRUE(notifier_.Notify("WATCHDOG=1").ok());
  ASSERT_TRUE(notifier_.Notify("STOPPING=1").ok());
  EXPECT_EQ(manager_.Receive(), "READY=1\nSTATUS=serving");
  EXPECT_EQ(manager_.Receive(), "WATCHDOG=1");
  EXPECT_EQ(manager_.Receive(), "STOPPING=1");
  EXPECT_TRUE(getenv("NOTIFY_SOCKET") != nullptr) << "the environment must stay for later calls";
}

TEST_F(SystemdNotifierTest, WithoutAServiceManagerNotifyingIsANoOp) {
  unsetenv("NOTIFY_SOCKET");
  EXPECT_TRUE(notifier_.Notify("READY=1").ok());
}

TEST_F(SystemdNotifierTest, AVanishedSocketIsAnError) {
  ScopedEnv socket("NOTIFY_SOCKET", dir_.path() + "/nobody-listens-here");
  EXPECT_FALSE(notifier_.Notify("WATCHDOG=1").ok());
}

TEST_F(SystemdNotifierTest, WatchdogTimeoutComesFromTheEnvironment) {
  ScopedEnv usec("WATCHDOG_USEC", "30000000");
  {
    ScopedEnv pid("WATCHDOG_PID", std::to_string(getpid()));
    EXPECT_EQ(notifier_.WatchdogTimeout(), std::chrono::seconds(30));
  }
  {
    ScopedEnv pid("WATCHDOG_PID", std::to_string(getpid() + 1));
    EXPECT_EQ(notifier_.WatchdogTimeout(), std::nullopt) << "meant for another process";
  }
}

TEST_F(SystemdNotifierTest, NoOrMalformedWatchdogUsecMeansNoWatchdog) {
  unsetenv("WATCHDOG_USEC");
  EXPECT_EQ(notifier_.WatchdogTimeout(), std::nullopt);
  ScopedEnv usec("WATCHDOG_USEC", "thirty");
  EXPECT_EQ(notifier_.WatchdogTimeout(), std::nullopt);
}

bool LibsystemdIsLoaded() {
  void* handle = dlopen(SystemdNotifier::kLibrary, RTLD_NOW | RTLD_NOLOAD);
  if (handle != nullptr) dlclose(handle);  // drops only the reference RTLD_NOLOAD took
  return handle != nullptr;
}

// Each case in a fresh process (the death-test machinery re-executes this binary for that one
// test), so what an earlier test loaded does not count (and a test binary that linked libsystemd
// fails the first case). Exit code 0: libsystemd loaded as expected.
class SystemdNotifierLoadingTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(SystemdNotifierLoadingTest, WithoutAServiceManagerLibsystemdIsNeverLoaded) {
  EXPECT_EXIT(
      {
        unsetenv("NOTIFY_SOCKET");
        unsetenv("WATCHDOG_USEC");
        SystemdNotifier notifier;
        bool quiet = notifier.Notify("READY=1").ok() && !notifier.WatchdogTimeout().has_value();
        std::exit(quiet && !LibsystemdIsLoaded() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(SystemdNotifierLoadingTest, UnderAServiceManagerLibsystemdIsLoaded) {
  EXPECT_EXIT(
      {
        unsetenv("NOTIFY_SOCKET");
        setenv("WATCHDOG_USEC", "30000000", 1);
        unsetenv("WATCHDOG_PID");
        SystemdNotifier notifier;
        bool enabled = notifier.WatchdogTimeout() == std::chrono::seconds(30);
        std::exit(enabled && LibsystemdIsLoaded() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(SystemdNotifierMissingLibraryTest, NotifyUnderAManagerSaysWhyAndNothingElseFails) {
  SystemdNotifier notifier("librocewatch-no-such-library.so.0");
  unsetenv("NOTIFY_SOCKET");
  EXPECT_TRUE(notifier.Notify("READY=1").ok()) << "no manager: nothing to load, nothing to send";
  ScopedEnv socket("NOTIFY_SOCKET", "/run/systemd/notify");
  ScopedEnv usec("WATCHDOG_USEC", "30000000");
  EXPECT_EQ(notifier.WatchdogTimeout(), std::nullopt);
  // Every notification says why, not only the first (the failure is kept, the load not retried).
  for (int attempt = 0; attempt < 2; ++attempt) {
    Status sent = notifier.Notify("READY=1");
    EXPECT_EQ(sent.code(), StatusCode::kUnavailable);
    EXPECT_EQ(sent.message().find("cannot load librocewatch-no-such-library.so.0: "), 0u)
        << sent.message();
    EXPECT_EQ(sent.message().find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace rocewatch
