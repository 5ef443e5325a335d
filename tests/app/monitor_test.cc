#include "daemon/monitor.h"

#include <gtest/gtest.h>

#include "support/fake_clock.h"
#include "support/fake_snapshot_source.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;

// Records what the Monitor asked of it.
class RecordingComponent final : public MonitorComponent {
 public:
  explicit RecordingComponent(Status start = Status::Ok()) : start_(std::move(start)) {}
  std::string_view name() const override { return "recording"; }
  Status Start(MonitorContext&) override { return start_; }
  void OnSnapshot(MonitorContext&, const NodeSnapshot&) override { ++snapshots; }
  void AppendMetrics(const MonitorContext&, MetricFamilies& out) const override {
    out.Gauge("test_snapshots", "", {}, snapshots);
  }
  void AppendFindings(const MonitorContext&, std::vector<Finding>& out) const override {
    if (finding) out.push_back({Severity::kWarning, "test_check", "mlx5_0/1", "seen", "none"});
  }
  int snapshots = 0;
  bool finding = false;

 private:
  Status start_;
};

class MonitorTest : public ::testing::Test {
 protected:
  MonitorTest() : source_(clock_), loop_(clock_) {
    source_.node.devices.push_back(RoceDevice("mlx5_0", "eth0", {"10.0.0.2"}));
  }
  // Advances the fake clock in small steps, running the loop at each.
  void RunFor(Duration d) {
    for (Duration passed{}; passed < d; passed += milliseconds(10)) {
      clock_.Advance(milliseconds(10));
      loop_.RunOnce(Duration::zero());
    }
  }
  FakeClock clock_;
  FakeSnapshotSource source_;
  EventLoop loop_;
};

TEST_F(MonitorTest, PollsOnStartAndThenEveryInterval) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  ASSERT_TRUE(monitor.Start().ok());
  EXPECT_EQ(source_.takes, 1);
  RunFor(std::chrono::milliseconds(3005));
  EXPECT_EQ(source_.takes, 4);
  EXPECT_EQ(monitor.polls(), 4u);
}

TEST_F(MonitorTest, RequestedSnapshotsWaitTheSettleDelayAndCoalesce) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(10), milliseconds(100)});
  ASSERT_TRUE(monitor.Start().ok());
  monitor.RequestSnapshot("address added");
  RunFor(milliseconds(50));
  monitor.RequestSnapshot("link up");
  monitor.RequestSnapshot("address added");
  EXPECT_EQ(source_.takes, 1);  // not before the settle delay
  RunFor(milliseconds(60));
  EXPECT_EQ(source_.takes, 2);  // one snapshot for the whole burst
  RunFor(milliseconds(500));
  EXPECT_EQ(source_.takes, 2);
}

TEST_F(MonitorTest, PublishesAfterEverySnapshotWithComponentMetrics) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  auto component = std::make_unique<RecordingComponent>();
  RecordingComponent* recorder = component.get();
  monitor.AddComponent(std::move(component));
  int publishes = 0;
  monitor.SetChangeSink([&] { ++publishes; });
  ASSERT_TRUE(monitor.Start().ok());
  RunFor(milliseconds(1005));
  EXPECT_EQ(recorder->snapshots, 2);
  EXPECT_EQ(publishes, 2);
  bool found = false;
  for (const auto& family : monitor.BuildExposition())
    if (family.name == "test_snapshots") found = family.metric.at(0).gauge.value == 2;
  EXPECT_TRUE(found);
}

TEST_F(MonitorTest, AComponentThatFailsToStartIsDisabledAndCounted) {
  Monitor monitor(loop_, source_, {});
  auto component = std::make_unique<RecordingComponent>(Status::Unavailable("no netlink"));
  RecordingComponent* recorder = component.get();
  monitor.AddComponent(std::move(component));
  ASSERT_TRUE(monitor.Start().ok());
  EXPECT_EQ(recorder->snapshots, 0);
  bool counted = false;
  for (const auto& family : monitor.BuildExposition())
    if (family.name == "rocewatch_source_errors_total")
      for (const auto& metric : family.metric)
        if (metric.label.at(0).value == "recording") counted = metric.counter.value == 1;
  EXPECT_TRUE(counted);
}

// A component whose snapshot handling takes `cost` of fake time and counts `errors` reads
// failed when told to.
class TimedComponent final : public MonitorComponent {
 public:
  TimedComponent(std::string name, FakeClock& clock, Duration cost)
      : name_(std::move(name)), clock_(clock), cost_(cost) {}
  std::string_view name() const override { return name_; }
  void OnSnapshot(MonitorContext& ctx, const NodeSnapshot&) override {
    clock_.Advance(cost_);
    if (fail_next) ctx.CountSourceError("sysfs", 1);
    fail_next = false;
  }
  bool fail_next = false;

 private:
  std::string name_;
  FakeClock& clock_;
  Duration cost_;
};

// The value of `name{component="<component>"}` in the exposition, or -1 when absent.
double ComponentGauge(const Monitor& monitor, const std::string& name,
                      const std::string& component) {
  for (const auto& family : monitor.BuildExposition())
    if (family.name == name)
      for (const auto& metric : family.metric)
        if (metric.label.at(0).name == "component" && metric.label.at(0).value == component)
          return metric.gauge.value;
  return -1;
}

TEST_F(MonitorTest, EachComponentReportsItsOwnSuccessAndDuration) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  auto fast = std::make_unique<TimedComponent>("fast", clock_, milliseconds(2));
  auto slow = std::make_unique<TimedComponent>("slow", clock_, milliseconds(30));
  TimedComponent* slow_ptr = slow.get();
  monitor.AddComponent(std::move(fast));
  monitor.AddComponent(std::move(slow));
  monitor.AddComponent(std::make_unique<RecordingComponent>(Status::Unavailable("no netlink")));
  ASSERT_TRUE(monitor.Start().ok());

  EXPECT_DOUBLE_EQ(ComponentGauge(monitor, "rocewatch_component_duration_seconds", "fast"), 0.002);
  EXPECT_DOUBLE_EQ(ComponentGauge(monitor, "rocewatch_component_duration_seconds", "slow"), 0.030);
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "fast"), 1);
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "slow"), 1);
  // A component that failed to start is listed as failed, not left out.
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "recording"), 0);

  // A failed read in one component's poll fails that component only, and only for that poll.
  slow_ptr->fail_next = true;
  ASSERT_TRUE(monitor.PollNow("test").ok());
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "slow"), 0);
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "fast"), 1);
  ASSERT_TRUE(monitor.PollNow("test").ok());
  EXPECT_EQ(ComponentGauge(monitor, "rocewatch_component_success", "slow"), 1);
}

TEST_F(MonitorTest, AFailedFirstSnapshotFailsStartButLaterFailuresAreCounted) {
  source_.next_error = Status::NotFound("/sys: gone");
  Monitor failing(loop_, source_, {});
  EXPECT_EQ(failing.Start().code(), StatusCode::kNotFound);

  source_.next_error = Status::Ok();
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  ASSERT_TRUE(monitor.Start().ok());
  double first_poll = monitor.last_poll_unix();
  source_.next_error = Status::IoError("EIO");
  RunFor(milliseconds(1005));
  EXPECT_EQ(monitor.last_poll_unix(), first_poll);          // /healthz will see the stall
  EXPECT_EQ(monitor.latest_snapshot().devices.size(), 1u);  // the last good snapshot stays
}

TEST_F(MonitorTest, RnicNetdevsComeFromPortsAndGidNdevs) {
  source_.node.devices[0].ports[0].gids.push_back(
      {1, 4, *GidOfAddress("10.0.1.2"), GidType::kRoceV2, "eth0.100"});
  Monitor monitor(loop_, source_, {});
  ASSERT_TRUE(monitor.Start().ok());
  EXPECT_EQ(monitor.rnic_netdevs(), (std::set<std::string>{"eth0", "eth0.100"}));
}

TEST_F(MonitorTest, RecordedEventsReachTheObserverWithTheirTime) {
  Monitor monitor(loop_, source_, {});
  std::vector<std::string> events;
  monitor.SetEventObserver([&](double, std::string_view what) { events.emplace_back(what); });
  monitor.RecordEvent("eth0 carrier down", Severity::kWarning);
  EXPECT_EQ(events, std::vector<std::string>{"eth0 carrier down"});
}

// The findings are evaluated on every publish (when each was first seen), so a document built
// long after a finding appeared still says when it did; a recorded event is a change too.
TEST_F(MonitorTest, FindingsKeepWhenTheyWereFirstSeenAndEventsAreAChange) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  auto component = std::make_unique<RecordingComponent>();
  RecordingComponent* recorder = component.get();
  monitor.AddComponent(std::move(component));
  int changes = 0;
  monitor.SetChangeSink([&] { ++changes; });
  ASSERT_TRUE(monitor.Start().ok());
  EXPECT_TRUE(monitor.timed_findings().empty());
  recorder->finding = true;
  RunFor(milliseconds(1005));
  ASSERT_EQ(monitor.timed_findings().size(), 1u);
  const double first_seen = monitor.timed_findings()[0].since_unix_seconds;
  EXPECT_EQ(monitor.timed_findings()[0].last_seen_unix_seconds, first_seen);
  RunFor(milliseconds(2000));
  ASSERT_EQ(monitor.timed_findings().size(), 1u);
  EXPECT_EQ(monitor.timed_findings()[0].since_unix_seconds, first_seen);
  EXPECT_NEAR(monitor.timed_findings()[0].last_seen_unix_seconds, first_seen + 2, 0.05);
  recorder->finding = false;
  RunFor(milliseconds(1000));
  EXPECT_TRUE(monitor.timed_findings().empty());

  const int before = changes;
  monitor.RecordEvent("eth0: carrier down", Severity::kWarning);
  EXPECT_EQ(changes, before + 1);
  ASSERT_FALSE(monitor.recent_events().empty());
  EXPECT_EQ(monitor.recent_events().back().what, "eth0: carrier down");
}

// A previous run's first-seen time is taken by a finding that comes back within the grace after
// the first poll (optics are judged one module per poll, so a few polls late), once; past the
// grace, none is.
TEST_F(MonitorTest, RestoredFirstSeenTimesAreTakenWithinTheGraceAfterTheFirstPoll) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  auto late = std::make_unique<RecordingComponent>();
  RecordingComponent* recorder = late.get();
  monitor.AddComponent(std::move(late));
  const double earlier = clock_.UnixSeconds() - 3600;
  monitor.RestoreFindingsSince({{{"test_check", "mlx5_0/1"}, earlier}});
  ASSERT_TRUE(monitor.Start().ok());
  RunFor(std::chrono::seconds(10));
  EXPECT_TRUE(monitor.timed_findings().empty());
  recorder->finding = true;  // judged 10 s after the start
  RunFor(milliseconds(1005));
  ASSERT_EQ(monitor.timed_findings().size(), 1u);
  EXPECT_EQ(monitor.timed_findings()[0].since_unix_seconds, earlier);
  EXPECT_EQ(monitor.findings_since().at({"test_check", "mlx5_0/1"}), earlier);

  // Healed, then back: a new finding with its own time (a restored time is taken once).
  recorder->finding = false;
  RunFor(std::chrono::seconds(2));
  recorder->finding = true;
  RunFor(milliseconds(1005));
  ASSERT_EQ(monitor.timed_findings().size(), 1u);
  EXPECT_GT(monitor.timed_findings()[0].since_unix_seconds, earlier + 3600);
}

TEST_F(MonitorTest, RestoredFirstSeenTimesAreDroppedAfterTheGrace) {
  Monitor monitor(loop_, source_, {std::chrono::seconds(1), milliseconds(100)});
  auto late = std::make_unique<RecordingComponent>();
  RecordingComponent* recorder = late.get();
  monitor.AddComponent(std::move(late));
  const double earlier = clock_.UnixSeconds() - 3600;
  monitor.RestoreFindingsSince({{{"test_check", "mlx5_0/1"}, earlier}});
  ASSERT_TRUE(monitor.Start().ok());
  RunFor(std::chrono::seconds(static_cast<int>(kRestoredSinceGraceSeconds) + 5));
  recorder->finding = true;
  RunFor(milliseconds(1005));
  ASSERT_EQ(monitor.timed_findings().size(), 1u);
  EXPECT_GT(monitor.timed_findings()[0].since_unix_seconds, earlier + 3600);
}

}  // namespace
}  // namespace rocewatch
