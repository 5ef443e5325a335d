#include "verbs/verbs_device_set.h"

#include <gtest/gtest.h>

#include "core/event_loop.h"
#include "gid_drift/watched_gid_table_source.h"
#include "support/fake_clock.h"
#include "support/fake_verbs_api.h"
#include "verbs/verbs_event_watcher.h"
#include "verbs/verbs_gid_table_source.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(VerbsDeviceSetTest, NoRdmaSupportIsAStateWithAReason) {
  FakeVerbsApi api;
  api.SetNoRdmaSupport();
  VerbsDeviceSet devices(api);
  VerbsDeviceSet::RefreshResult result = devices.Refresh();
  EXPECT_TRUE(result.list_status.ok());
  EXPECT_TRUE(devices.empty());
  EXPECT_NE(devices.absent_reason().find("ENOSYS"), std::string::npos);
}

TEST(VerbsDeviceSetTest, AnEmptyListIsNoDevices) {
  FakeVerbsApi api;
  VerbsDeviceSet devices(api);
  devices.Refresh();
  EXPECT_TRUE(devices.empty());
  EXPECT_NE(devices.absent_reason().find("empty device list"), std::string::npos);
}

TEST(VerbsDeviceSetTest, OpensEveryListedDeviceOnceAndKeepsThemOpen) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  api.AddDevice("mlx5_1");
  VerbsDeviceSet devices(api);
  EXPECT_EQ(devices.Refresh().opened, (std::vector<std::string>{"mlx5_0", "mlx5_1"}));
  EXPECT_FALSE(devices.Refresh().changed());
  EXPECT_EQ(api.opens["mlx5_0"], 1);
  EXPECT_EQ(api.open_contexts(), 2);
  EXPECT_TRUE(devices.absent_reason().empty());
}

TEST(VerbsDeviceSetTest, ADeviceThatCannotBeOpenedIsReported) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0").open_errno = EACCES;
  VerbsDeviceSet devices(api);
  VerbsDeviceSet::RefreshResult result = devices.Refresh();
  ASSERT_EQ(result.failed.size(), 1u);
  EXPECT_EQ(result.failed[0].second.code(), StatusCode::kPermissionDenied);
  EXPECT_NE(devices.absent_reason().find("could be opened"), std::string::npos);
}

TEST(VerbsDeviceSetTest, PicksUpNewDevicesAndClosesVanishedOnes) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  api.AddDevice("mlx5_1");
  api.device("mlx5_0").listed = false;
  VerbsDeviceSet::RefreshResult result = devices.Refresh();
  EXPECT_EQ(result.opened, (std::vector<std::string>{"mlx5_1"}));
  EXPECT_EQ(result.closed, (std::vector<std::string>{"mlx5_0"}));
  EXPECT_EQ(api.closes["mlx5_0"], 1);
}

TEST(VerbsDeviceSetTest, PortAndGidEventsAskForASnapshotOthersAreAcknowledgedOnly) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kOther, 0, 0});
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kPortError, 1, 10});
  VerbsDeviceSet::AsyncOutcome outcome = devices.DrainAsyncEvents("mlx5_0");
  EXPECT_EQ(outcome.events, 3u);
  EXPECT_EQ(outcome.snapshot_reasons,
            (std::vector<std::string>{"verbs gid_change mlx5_0/1", "verbs port_error mlx5_0/1"}));
  EXPECT_FALSE(outcome.device_lost);
}

TEST(VerbsDeviceSetTest, DeviceFatalClosesTheDevice) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kDeviceFatal, 0, 8});
  VerbsDeviceSet::AsyncOutcome outcome = devices.DrainAsyncEvents("mlx5_0");
  EXPECT_TRUE(outcome.device_lost);
  EXPECT_EQ(devices.Find("mlx5_0"), nullptr);
  EXPECT_EQ(api.closes["mlx5_0"], 1);
}

TEST(VerbsDeviceSetTest, AnEventStormIsDrainedInBoundedSteps) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  for (int i = 0; i < 100; ++i)
    api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
  EXPECT_EQ(devices.DrainAsyncEvents("mlx5_0", 64).events, 64u);
  EXPECT_EQ(devices.DrainAsyncEvents("mlx5_0", 64).events, 36u);
}

// The watcher on a real poll() loop: the fake's async fds are pipes.
class VerbsEventWatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_.AddDevice("mlx5_0");
    devices_.Refresh();
    watcher_.Start();
  }
  void Step() { loop_.RunOnce(milliseconds(0)); }
  // What a poll does: the GID reader makes the re-enumeration asked for (on its reading thread, in
  // the daemon), then the component syncs the watcher.
  void Poll() {
    devices_.RefreshIfRequested();
    watcher_.Sync();
  }

  FakeClock clock_;
  EventLoop loop_{clock_};
  FakeVerbsApi api_;
  VerbsDeviceSet devices_{api_};
  std::vector<std::string> requests_;
  VerbsEventWatcher watcher_{loop_, devices_,
                             [this](std::string_view reason) { requests_.emplace_back(reason); },
                             seconds(30)};
};

TEST_F(VerbsEventWatcherTest, AGidChangeOnTheAsyncFdRequestsASnapshot) {
  api_.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
  Step();
  EXPECT_EQ(requests_, (std::vector<std::string>{"verbs gid_change mlx5_0/1"}));
  EXPECT_EQ(watcher_.events_read(), 1u);
}

TEST_F(VerbsEventWatcherTest, NothingPendingNothingRequested) {
  Step();
  EXPECT_TRUE(requests_.empty());
}

TEST_F(VerbsEventWatcherTest, AnUnpluggedDeviceIsClosedAndReopenedWhenItReturns) {
  api_.Unplug("mlx5_0");
  Step();  // the async fd hangs up
  EXPECT_EQ(watcher_.devices_lost(), 1u);
  EXPECT_EQ(devices_.Find("mlx5_0"), nullptr);
  EXPECT_TRUE(watcher_.watched().empty());
  EXPECT_EQ(requests_.back(), "verbs device lost mlx5_0");

  api_.Replug("mlx5_0");
  clock_.Advance(seconds(30));
  Step();  // the periodic re-enumeration is asked for, not made on the loop
  EXPECT_EQ(devices_.Find("mlx5_0"), nullptr);
  Poll();
  ASSERT_NE(devices_.Find("mlx5_0"), nullptr);
  EXPECT_EQ(api_.opens["mlx5_0"], 2);
  EXPECT_EQ(watcher_.watched().count("mlx5_0"), 1u);
  EXPECT_EQ(requests_.back(), "verbs device set changed");

  api_.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kPortActive, 1, 9});
  Step();
  EXPECT_EQ(requests_.back(), "verbs port_active mlx5_0/1");
}

TEST_F(VerbsEventWatcherTest, ADeviceOpenedByAGidReadIsWatchedAfterSync) {
  api_.AddDevice("mlx5_1");
  ASSERT_TRUE(devices_.FindOrOpen("mlx5_1").ok());
  watcher_.Sync();
  EXPECT_EQ(watcher_.watched().count("mlx5_1"), 1u);
  api_.PushAsyncEvent("mlx5_1", {VerbsAsyncEventKind::kGidChange, 1, 18});
  Step();
  EXPECT_EQ(requests_.back(), "verbs gid_change mlx5_1/1");
}

TEST_F(VerbsEventWatcherTest, ANewDeviceIsPickedUpByThePeriodicRescan) {
  api_.AddDevice("mlx5_1", 2);
  clock_.Advance(seconds(29));
  Step();
  Poll();
  EXPECT_EQ(devices_.Find("mlx5_1"), nullptr);
  clock_.Advance(seconds(1));
  Step();
  EXPECT_EQ(devices_.Find("mlx5_1"), nullptr);  // asked for; the next poll's GID read makes it
  Poll();
  EXPECT_NE(devices_.Find("mlx5_1"), nullptr);
  EXPECT_EQ(watcher_.watched().size(), 2u);
  EXPECT_EQ(requests_.back(), "verbs device set changed");
}

TEST_F(VerbsEventWatcherTest, TheWatchedGidReaderMakesTheReEnumerationAskedFor) {
  api_.AddDevice("mlx5_1", 2);
  watcher_.Rescan();
  EXPECT_EQ(devices_.Find("mlx5_1"), nullptr);  // asked for, not made on the loop
  CallWatch watch(std::make_shared<StuckCalls>());
  WatchedGidTableSource reader(std::make_unique<VerbsGidTableSource>(devices_), watch);
  ASSERT_TRUE(reader.ReadDevice("mlx5_0").ok());
  EXPECT_NE(devices_.Find("mlx5_1"), nullptr);  // opened by the re-enumeration
  EXPECT_EQ(watcher_.watched().count("mlx5_1"), 0u);
  watcher_.Sync();
  EXPECT_EQ(watcher_.watched().count("mlx5_1"), 1u);
  EXPECT_EQ(requests_.back(), "verbs device set changed");
  ASSERT_TRUE(reader.ReadDevice("mlx5_0").ok());  // not asked again: no re-enumeration
  EXPECT_EQ(api_.opens["mlx5_1"], 1);
}

// A reading thread given up on while the driver listed or opened devices leaves the set as it is
// (the loop and a new reader use it now) and the re-enumeration to the next reader.
TEST_F(VerbsEventWatcherTest, AReEnumerationGivenUpOnLeavesTheSetToTheNextReader) {
  api_.AddDevice("mlx5_1", 2);
  watcher_.Rescan();
  devices_.RefreshIfRequested([] { return false; });
  EXPECT_EQ(devices_.Find("mlx5_1"), nullptr);
  EXPECT_EQ(api_.opens["mlx5_1"], 1);  // opened, then closed unused
  Poll();
  EXPECT_NE(devices_.Find("mlx5_1"), nullptr);
  EXPECT_EQ(watcher_.watched().count("mlx5_1"), 1u);
}

TEST(VerbsEventWatcherLifetimeTest, DestructionUnwatchesEveryFdAndCancelsTheRescan) {
  FakeClock clock;
  EventLoop loop(clock);
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  int requests = 0;
  {
    VerbsEventWatcher watcher(
        loop, devices, [&](std::string_view) { ++requests; }, seconds(5));
    watcher.Start();
  }
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
  clock.Advance(seconds(5));
  EventLoop::StepResult step = loop.RunOnce(milliseconds(0));
  EXPECT_EQ(step.fds_dispatched, 0);
  EXPECT_EQ(step.timers_fired, 0);
  EXPECT_EQ(requests, 0);
}

}  // namespace
}  // namespace rocewatch
