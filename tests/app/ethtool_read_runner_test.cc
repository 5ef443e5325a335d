// The ethtool component's driver calls behind a deadline: a call that never returns does not hold
// the loop past its deadline; it is reported as a stalled ethtool read naming the netdev and the
// call, that netdev is skipped while it is stuck, the other netdevs are still read and exported,
// and after the call returns the netdev is read again. The fake kernel blocks one netdev's calls
// until the test releases it (conditions, no sleeps in what is tested).
#include "link_quality/ethtool_read_runner.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "daemon/monitor.h"
#include "daemon/source_stall_component.h"
#include "link_quality/ethtool_component.h"
#include "support/blocking_file_system.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/fake_snapshot_source.h"
#include "support/gate.h"
#include "support/http_client.h"
#include "support/node_builder.h"
#include "support/state_stub_component.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr const char* kStuck = "stuck0";
constexpr const char* kHealthy = "ok0";

// The kernel behind every source opened on it: `blocked` netdev's calls wait until Release().
class BlockingKernel {
 public:
  explicit BlockingKernel(std::string blocked) : blocked_(std::move(blocked)) {}

  void Enter(const std::string& netdev) {
    std::unique_lock<std::mutex> lock(mutex_);
    ++calls_[netdev];
    if (netdev != blocked_) return;
    ++waiting_;
    changed_.wait(lock, [&] { return released_; });
    --waiting_;
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }
  int calls(const std::string& netdev) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = calls_.find(netdev);
    return it == calls_.end() ? 0 : it->second;
  }

 private:
  const std::string blocked_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, int> calls_;  // GUARDED_BY(mutex_)
  int waiting_ = 0;                   // GUARDED_BY(mutex_)
  bool released_ = false;             // GUARDED_BY(mutex_)
};

class BlockingEthtool final : public DriverStatisticsSource, public EthtoolNetlinkSource {
 public:
  explicit BlockingEthtool(std::shared_ptr<BlockingKernel> kernel) : kernel_(std::move(kernel)) {}
  StatusOr<std::optional<DriverStatistics>> ReadDriverStatistics(
      const std::string& netdev) override {
    kernel_->Enter(netdev);
    DriverStatistics s;
    s.counters = {{"rx_packets_phy", 1000}, {"link_down_events_phy", 3}};
    return std::optional<DriverStatistics>(s);
  }
  StatusOr<std::optional<EthtoolAnswer>> Read(const std::string& netdev,
                                              EthtoolRequest request) override {
    kernel_->Enter(netdev);
    if (request == EthtoolRequest::kFec) return std::optional<EthtoolAnswer>(FecReading{});
    return std::optional<EthtoolAnswer>();
  }
  StatusOr<std::optional<std::string>> ReadModulePage(const std::string& netdev,
                                                      const ModulePageAddress&) override {
    kernel_->Enter(netdev);
    return std::optional<std::string>();
  }

 private:
  const std::shared_ptr<BlockingKernel> kernel_;
};

EthtoolSources OpenOn(const std::shared_ptr<BlockingKernel>& kernel) {
  EthtoolSources sources;
  sources.statistics = std::make_unique<BlockingEthtool>(kernel);
  sources.netlink = std::make_unique<BlockingEthtool>(kernel);
  return sources;
}

EthtoolReadDeadline ShortDeadline(const std::shared_ptr<BlockingKernel>& kernel,
                                  std::shared_ptr<StuckCalls> stuck) {
  EthtoolReadDeadline deadline;
  deadline.stuck = std::move(stuck);
  deadline.call_deadline = milliseconds(20);
  deadline.reopen = [kernel] { return OpenOn(kernel); };
  return deadline;
}

// Two live netdevs in a Monitor, the ethtool component and the stall reporter sharing StuckCalls.
class EthtoolDeadlineTest : public ::testing::Test {
 protected:
  EthtoolDeadlineTest() : source_(clock_), loop_(clock_), monitor_(loop_, source_, {seconds(10)}) {
    NodeSnapshot node;
    node.devices.push_back(RoceDevice("mlx5_0", kStuck, {}));
    node.devices.push_back(RoceDevice("mlx5_1", kHealthy, {}));
    source_.node = node;
    auto component =
        std::make_unique<EthtoolComponent>(EthtoolOptions{}, fs_, HostPaths::ForRoots("/host"),
                                           OpenOn(kernel_), ShortDeadline(kernel_, stuck_));
    ethtool_ = component.get();
    monitor_.AddComponent(std::move(component));
    monitor_.AddComponent(
        std::make_unique<StateStubComponent>(StateParts{StatePart::kNetdevLinks}, "netlink"));
    monitor_.AddComponent(std::make_unique<SourceStallComponent>(
        *stuck_, std::vector<std::string>{"sysfs", "ethtool"}, milliseconds(20)));
  }
  ~EthtoolDeadlineTest() override {
    kernel_->Release();
    EXPECT_TRUE(Eventually([&] { return stuck_->abandoned_threads() == 0; }));
  }
  void Poll() {
    clock_.Advance(seconds(10));
    loop_.RunOnce(Duration::zero());
  }
  std::optional<double> Sample(const std::string& series) {
    return FindSample(prometheus::TextSerializer().Serialize(monitor_.BuildExposition()), series);
  }
  std::optional<Finding> Stalled() {
    for (const Finding& f : monitor_.CurrentFindings())
      if (f.check == "source_stalled") return f;
    return std::nullopt;
  }

  std::shared_ptr<BlockingKernel> kernel_ = std::make_shared<BlockingKernel>(kStuck);
  std::shared_ptr<StuckCalls> stuck_ = std::make_shared<StuckCalls>();
  FakeClock clock_;
  FakeSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_;
  FakeFileSystem fs_;
  EthtoolComponent* ethtool_ = nullptr;
};

TEST_F(EthtoolDeadlineTest, AStuckCallIsReportedAndTheOtherNetdevsAreStillExported) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll();
  EXPECT_EQ(Sample("rocewatch_source_stalled{source=\"ethtool\"}"), 1);
  EXPECT_EQ(Sample("rocewatch_source_stalled{source=\"sysfs\"}"), 0);
  std::optional<Finding> stalled = Stalled();
  ASSERT_TRUE(stalled);
  EXPECT_EQ(stalled->subject, "ethtool");
  EXPECT_NE(stalled->message.find("ETHTOOL_GSTATS stuck0"), std::string::npos) << stalled->message;
  EXPECT_EQ(Sample("rocewatch_netdev_ethtool_supported{netdev=\"ok0\",request=\"fec\"}"), 1);
  EXPECT_EQ(Sample("rocewatch_netdev_link_down_events_total{netdev=\"ok0\"}"), 3);
}

TEST_F(EthtoolDeadlineTest, TheStuckNetdevIsSkippedWhileStuckAndReadAgainOnceItReturns) {
  ASSERT_TRUE(monitor_.Start().ok());
  Poll();
  const int stuck_calls = kernel_->calls(kStuck), healthy_calls = kernel_->calls(kHealthy);
  Poll();
  EXPECT_EQ(ethtool_->LinkDownReason(kStuck), "");  // at once: the netdev is skipped
  EXPECT_EQ(kernel_->calls(kStuck), stuck_calls);
  EXPECT_GT(kernel_->calls(kHealthy), healthy_calls);

  kernel_->Release();
  ASSERT_TRUE(Eventually([&] { return stuck_->size() == 0 && stuck_->abandoned_threads() == 0; }));
  Poll();
  EXPECT_GT(kernel_->calls(kStuck), stuck_calls);
  EXPECT_EQ(Sample("rocewatch_source_stalled{source=\"ethtool\"}"), 0);
  EXPECT_FALSE(Stalled());
  EXPECT_EQ(Sample("rocewatch_netdev_link_down_events_total{netdev=\"stuck0\"}"), 3);
}

TEST(EthtoolReadRunnerTest, ALinkDownReasonThatDoesNotAnswerIsBoundedByTheDeadline) {
  auto kernel = std::make_shared<BlockingKernel>(kStuck);
  auto stuck = std::make_shared<StuckCalls>();
  EthtoolReadRunner runner(OpenOn(kernel), ShortDeadline(kernel, stuck));
  StatusOr<std::optional<LinkStateReading>> state = runner.netlink()->ReadLinkState(kStuck);
  EXPECT_EQ(state.status().code(), StatusCode::kUnavailable);
  ASSERT_EQ(stuck->List().size(), 1u);
  EXPECT_EQ(stuck->List()[0].source, "ethtool");
  EXPECT_EQ(stuck->List()[0].what, "LINKSTATE_GET stuck0");
  EXPECT_EQ(runner.stalls(), 1u);
  EXPECT_TRUE(runner.netlink()->ReadLinkState(kHealthy).ok());  // a new thread, sources reopened
  kernel->Release();
  EXPECT_TRUE(Eventually([&] { return stuck->abandoned_threads() == 0; }));
}

TEST(EthtoolReadRunnerTest, StoppingAndDestroyingDoNotWaitOnAStuckCall) {
  auto kernel = std::make_shared<BlockingKernel>(kStuck);
  auto stuck = std::make_shared<StuckCalls>();
  {
    EthtoolReadRunner runner(OpenOn(kernel), ShortDeadline(kernel, stuck));
    EXPECT_FALSE(runner.statistics()->ReadDriverStatistics(kStuck).ok());
    runner.Stop();
  }  // the stuck thread was detached: nothing here waits for it
  EXPECT_EQ(stuck->abandoned_threads(), 1);
  kernel->Release();
  EXPECT_TRUE(Eventually([&] { return stuck->abandoned_threads() == 0 && stuck->size() == 0; }));
}

// The poller's file reads (class/net/<netdev>/speed asks the driver under RTNL) go through the
// runner's thread: a stuck one is named "read <path>", fails as an unreadable file (IoError ETIME)
// without holding the caller, and the other files are still read.
TEST(EthtoolReadRunnerTest, AStuckFileReadIsBoundedAndTheOtherFilesAreRead) {
  auto kernel = std::make_shared<BlockingKernel>(kStuck);
  auto stuck = std::make_shared<StuckCalls>();
  FakeFileSystem files;
  files.AddFile("/sys/class/net/ok0/speed", "100000\n");
  files.AddFile("/sys/class/net/stuck0/speed", "100000\n");
  BlockingFileSystem blocking(files);
  blocking.Block("/sys/class/net/stuck0/speed");
  EthtoolReadRunner runner(OpenOn(kernel), ShortDeadline(kernel, stuck));
  std::unique_ptr<FileSystem> through = runner.FilesThrough(blocking);

  StatusOr<std::string> healthy = through->ReadFile("/sys/class/net/ok0/speed", 64);
  ASSERT_TRUE(healthy.ok());
  EXPECT_EQ(*healthy, "100000\n");
  StatusOr<std::string> wedged = through->ReadFile("/sys/class/net/stuck0/speed", 64);
  EXPECT_EQ(wedged.status().code(), StatusCode::kIoError);
  EXPECT_EQ(wedged.status().sys_errno(), ETIME);
  ASSERT_EQ(stuck->List().size(), 1u);
  EXPECT_EQ(stuck->List()[0].source, "ethtool");
  EXPECT_EQ(stuck->List()[0].what, "read /sys/class/net/stuck0/speed");
  EXPECT_TRUE(through->ReadFile("/sys/class/net/ok0/speed", 64).ok());  // a new thread
  EXPECT_EQ(through->ReadFile("/sys/class/net/stuck0/speed", 64).status().sys_errno(), ETIME);
  EXPECT_EQ(blocking.waiting(), 1);  // refused at once, not made again

  blocking.Release();
  EXPECT_TRUE(Eventually([&] { return stuck->size() == 0 && stuck->abandoned_threads() == 0; }));
  EXPECT_TRUE(through->ReadFile("/sys/class/net/stuck0/speed", 64).ok());
}

}  // namespace
}  // namespace rocewatch
