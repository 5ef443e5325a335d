#include "daemon/service_status_reporter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fake_clock.h"
#include "support/fake_service_notifier.h"

namespace rocewatch {
namespace {

using std::chrono::seconds;
using Notifications = std::vector<std::string>;

class ServiceStatusReporterTest : public ::testing::Test {
 protected:
  // Moves time on by `d` and runs whatever became due.
  void Advance(Duration d) {
    clock_.Advance(d);
    loop_.RunOnce(Duration::zero());
  }

  FakeClock clock_;
  EventLoop loop_{clock_};
  FakeServiceNotifier manager_;
  bool healthy_ = true;
  ServiceStatusReporter reporter_{loop_, manager_, [this] { return healthy_; }};
};

TEST_F(ServiceStatusReporterTest, ReadyCarriesAStatusLine) {
  reporter_.Ready("serving 8 RDMA devices");
  EXPECT_EQ(manager_.notifications, Notifications{"READY=1\nSTATUS=serving 8 RDMA devices"});
}

TEST_F(ServiceStatusReporterTest, PingsAtHalfTheWatchdogTimeout) {
  manager_.watchdog_timeout = seconds(30);
  reporter_.Start();
  EXPECT_EQ(reporter_.ping_interval(), seconds(15));
  Advance(seconds(14));
  EXPECT_TRUE(manager_.notifications.empty());
  Advance(seconds(1));
  Advance(seconds(15));
  EXPECT_EQ(manager_.notifications, (Notifications{"WATCHDOG=1", "WATCHDOG=1"}));
}

TEST_F(ServiceStatusReporterTest, NoWatchdogExpectedMeansNoPings) {
  reporter_.Start();
  Advance(seconds(3600));
  EXPECT_TRUE(manager_.notifications.empty());
  EXPECT_EQ(reporter_.ping_interval(), Duration::zero());
}

TEST_F(ServiceStatusReporterTest, WithholdsPingsWhileUnhealthyAndResumesAfter) {
  manager_.watchdog_timeout = seconds(30);
  reporter_.Start();
  healthy_ = false;
  Advance(seconds(15));
  Advance(seconds(15));
  EXPECT_TRUE(manager_.notifications.empty());
  EXPECT_EQ(reporter_.pings_withheld(), 2u);
  healthy_ = true;
  Advance(seconds(15));
  EXPECT_EQ(manager_.notifications, Notifications{"WATCHDOG=1"});
}

TEST_F(ServiceStatusReporterTest, StoppingEndsThePings) {
  manager_.watchdog_timeout = seconds(30);
  reporter_.Start();
  Advance(seconds(15));
  reporter_.Stopping();
  Advance(seconds(60));
  EXPECT_EQ(manager_.notifications, (Notifications{"WATCHDOG=1", "STOPPING=1"}));
}

TEST_F(ServiceStatusReporterTest, AFailingManagerDoesNotStopThePings) {
  manager_.watchdog_timeout = seconds(2);
  manager_.fail_with = Status::IoError("sendmsg", 111);
  reporter_.Start();
  Advance(seconds(1));
  Advance(seconds(1));
  EXPECT_EQ(manager_.notifications.size(), 2u);
}

}  // namespace
}  // namespace rocewatch
