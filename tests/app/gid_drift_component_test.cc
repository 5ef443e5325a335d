#include "gid_drift/gid_drift_component.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "support/fake_clock.h"
#include "support/fake_state_file_writer.h"
#include "support/fake_verbs_api.h"
#include "support/simulated_gid_table.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A MonitorContext that records what components ask of it.
class RecordingContext final : public MonitorContext {
 public:
  explicit RecordingContext(FakeClock& clock) : clock_(clock), loop_(clock) {}
  EventLoop& loop() override { return loop_; }
  const Clock& clock() const override { return clock_; }
  void RequestSnapshot(std::string_view reason) override { snapshot_requests.emplace_back(reason); }
  void RequestPublish() override {}
  const NodeStateView& state() const override { return view_; }
  NodeStateWriter& state_writer() override { return writer_; }
  void CountSourceError(std::string_view source, uint64_t count) override {
    source_errors[std::string(source)] += count;
  }
  void RecordEvent(std::string_view what, Severity severity) override {
    events.emplace_back(what);
    severities.push_back(severity);
  }

  std::vector<std::string> snapshot_requests;
  std::vector<std::string> events;
  std::vector<Severity> severities;  // of each event
  std::map<std::string, uint64_t> source_errors;
  // The node state; the component reads all of it and writes none.
  NodeState node_state;

 private:
  static StateDeclaration ReadsAll() {
    StateDeclaration all;
    for (size_t i = 0; i < kStatePartCount; ++i) all.reads_previous.Add(static_cast<StatePart>(i));
    return all;
  }

  FakeClock& clock_;
  EventLoop loop_;
  NodeStateView view_{node_state, ReadsAll(), "gid_drift"};
  NodeStateWriter writer_{node_state, {}, "gid_drift"};
};

// Captures spdlog output for the life of the object.
class LogCapture {
 public:
  LogCapture() : previous_(spdlog::default_logger()) {
    auto logger = std::make_shared<spdlog::logger>(
        "capture", std::make_shared<spdlog::sinks::ostream_sink_st>(stream_));
    logger->set_pattern("%l %v");
    spdlog::set_default_logger(logger);
  }
  ~LogCapture() { spdlog::set_default_logger(previous_); }
  std::string text() const { return stream_.str(); }

 private:
  std::ostringstream stream_;
  std::shared_ptr<spdlog::logger> previous_;
};

std::optional<double> ValueOf(const std::vector<prometheus::MetricFamily>& families,
                              const std::string& name, const Labels& labels) {
  for (const auto& family : families) {
    if (family.name != name) continue;
    for (const auto& metric : family.metric) {
      Labels have;
      for (const auto& l : metric.label) have.emplace_back(l.name, l.value);
      if (have != labels) continue;
      return family.type == prometheus::MetricType::Counter ? metric.counter.value
                                                            : metric.gauge.value;
    }
  }
  return std::nullopt;
}

// A one-rail node whose GID table is simulated, a daemon component on it, a state file.
class GidDriftComponentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_.WriteFile("proc/sys/kernel/random/boot_id", "boot-a\n");
    port_.AddAddress("10.0.0.1/24");
  }
  std::unique_ptr<GidStateStore> MakeStore(StateFileWriter& writer) {
    return std::make_unique<GidStateStore>(fs_, writer, root_.path() + "/state.json",
                                           root_.path() + "/proc/sys/kernel/random/boot_id");
  }
  NodeSnapshot Snapshot() const {
    Port port;
    port.number = 1;
    port.state = "ACTIVE";
    port.link_layer = "Ethernet";
    port.netdevs = {"eth0"};
    port.gids = port_.Entries();
    return NodeSnapshot{clock_.Now(), {Device{"mlx5_0", "", "", "", {port}}}, {}, {}};
  }
  std::vector<prometheus::MetricFamily> Metrics(const GidDriftComponent& component) {
    MetricFamilies out;
    component.AppendMetrics(ctx_, out);
    return out.Take();
  }
  void Flap(SimulatedGidTable& table) {
    table.RemoveAddress("10.0.0.1");
    table.AddAddress("10.0.0.1/24");
  }

  FakeClock clock_;
  RecordingContext ctx_{clock_};
  TempDir root_;
  PosixFileSystem fs_;
  PosixStateFileWriter writer_;
  SimulatedGidTable port_{1, "eth0", "02:00:00:00:00:01"};
  const Labels eth0_ = {{"device", "mlx5_0"}, {"port", "1"}, {"netdev", "eth0"}};
};

TEST_F(GidDriftComponentTest, ADriftIsCountedLoggedAndTimestamped) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  port_.TakeReference(3);
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_gid_drift_events_total", eth0_), 0.0)
      << "the series exists before the first drift";

  Flap(port_);
  clock_.Advance(seconds(10));
  component.OnSnapshot(ctx_, Snapshot());
  auto metrics = Metrics(component);
  EXPECT_EQ(ValueOf(metrics, "rocewatch_gid_drift_events_total", eth0_), 1.0);
  EXPECT_EQ(ValueOf(metrics, "rocewatch_gid_last_drift_timestamp_seconds", eth0_),
            clock_.UnixSeconds());
  std::vector<std::string> drift_lines;
  for (size_t i = 0; i < ctx_.events.size(); ++i) {
    if (ctx_.events[i].rfind("gid_drift ", 0) != 0) continue;
    drift_lines.push_back(ctx_.events[i]);
    EXPECT_EQ(ctx_.severities[i], Severity::kWarning) << "a drift is logged as a warning";
  }
  EXPECT_EQ(drift_lines,
            (std::vector<std::string>{"gid_drift device=mlx5_0 port=1 netdev=eth0 "
                                      "gid=0000:0000:0000:0000:0000:ffff:0a00:0001 type=roce_v2 "
                                      "old_index=3 new_index=4"}));
  std::vector<Finding> findings;
  component.AppendFindings(ctx_, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "gid_drift");
  EXPECT_NE(findings[0].message.find("from index 3 to 4"), std::string::npos);
}

TEST_F(GidDriftComponentTest, ADriftNamesTheConsumersHoldingTheStaleEntryAndTheirFate) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ConsumerObservation seen;
  RailConsumer pinned;
  pinned.pid = 4100;
  pinned.pod = "trainer-0";
  pinned.pod_namespace = "ml";
  pinned.nccl_version = "2.21.5";
  pinned.nccl_gid_index = 3;
  seen.devices["mlx5_0"] = {ConsumerKnowledge::kPresent, {pinned}};
  ctx_.node_state.consumers = seen;
  component.UseConsumers();
  ASSERT_TRUE(component.Start(ctx_).ok());
  port_.TakeReference(3);  // the job's queue pairs hold the GID at index 3
  component.OnSnapshot(ctx_, Snapshot());
  Flap(port_);
  clock_.Advance(seconds(10));
  component.OnSnapshot(ctx_, Snapshot());
  ASSERT_FALSE(ctx_.events.empty());
  EXPECT_NE(ctx_.events.back().find("new_index=4 consumers=\"pod ml/trainer-0, NCCL 2.21.5\""),
            std::string::npos)
      << ctx_.events.back();
  std::vector<Finding> findings;
  component.AppendFindings(ctx_, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find(
                "Holding the stale entry: pod ml/trainer-0 (NCCL_IB_GID_INDEX=3: its live and new "
                "connections use the stale index 3; it fails or hangs until restarted with "
                "NCCL_IB_GID_INDEX=4)."),
            std::string::npos)
      << findings[0].message;
}

TEST_F(GidDriftComponentTest, GidChangesAfterTheBaselineAreRecordedAsEvents) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_TRUE(ctx_.events.empty()) << "the baseline is no news";
  port_.RemoveAddress("10.0.0.1");
  component.OnSnapshot(ctx_, Snapshot());
  ASSERT_EQ(ctx_.events.size(), 2u);
  EXPECT_EQ(ctx_.events[0].rfind("gid_removed device=mlx5_0 port=1 netdev=eth0", 0), 0u);
  EXPECT_EQ(ctx_.severities[0], Severity::kInfo);
}

TEST_F(GidDriftComponentTest, AMoveWhileTheDaemonWasDownIsADriftAfterRestart) {
  port_.TakeReference(3);
  {
    auto store = MakeStore(writer_);
    GidDriftComponent before(*store, nullptr, {});
    ASSERT_TRUE(before.Start(ctx_).ok());
    before.OnSnapshot(ctx_, Snapshot());
    before.Stop(ctx_);
  }
  Flap(port_);
  auto store = MakeStore(writer_);
  GidDriftComponent after(*store, nullptr, {});
  ASSERT_TRUE(after.Start(ctx_).ok());
  after.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(after), "rocewatch_gid_drift_events_total", eth0_), 1.0);
}

TEST_F(GidDriftComponentTest, IndexMismatchFollowsTheExpectedIndex) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {3});
  ASSERT_TRUE(component.Start(ctx_).ok());
  port_.TakeReference(3);
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_gid_index_mismatch", eth0_), 0.0);
  Flap(port_);
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_gid_index_mismatch", eth0_), 1.0);
  EXPECT_EQ(
      ValueOf(Metrics(component), "rocewatch_gid_holes", {{"device", "mlx5_0"}, {"port", "1"}}),
      1.0);
}

TEST_F(GidDriftComponentTest, WithoutAnExpectedIndexThereIsNoMismatchMetric) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_gid_index_mismatch", eth0_), std::nullopt);
}

TEST_F(GidDriftComponentTest, PersistenceFailuresAreCountedWarnedOnceAndNeverFatal) {
  FakeStateFileWriter failing;
  failing.fail_errno = ENOSPC;
  auto store = MakeStore(failing);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  LogCapture log;
  component.OnSnapshot(ctx_, Snapshot());
  port_.AddAddress("10.0.0.2");
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_state_persistence_failures_total", {}), 2.0);
  EXPECT_EQ(ctx_.source_errors["state"], 2u);
  std::string text = log.text();
  EXPECT_NE(text.find("cannot write the GID state"), std::string::npos);
  EXPECT_EQ(text.find("cannot write the GID state"), text.rfind("cannot write the GID state"))
      << "one warning per failure episode";
}

TEST_F(GidDriftComponentTest, AnUnchangedStateIsNotRewritten) {
  FakeStateFileWriter recording;
  auto store = MakeStore(recording);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  for (int i = 0; i < 5; ++i) component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(recording.writes, 1);
}

TEST_F(GidDriftComponentTest, UnchangedTablesAreNotObservedAgainAndTheNextChangeIsStillADrift) {
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  port_.TakeReference(3);
  for (int poll = 0; poll < 4; ++poll) {  // the first, then three with the tables carried forward
    component.OnSnapshot(ctx_, Snapshot());
    clock_.Advance(seconds(1));
  }
  EXPECT_EQ(component.observations(), 1u);
  const GidDriftState before = component.state();
  Flap(port_);
  clock_.Advance(seconds(1));
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(component.observations(), 2u);
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_gid_drift_events_total", eth0_), 1.0);
  EXPECT_NE(component.state(), before);
  // A port's netdev changing (same GIDs) is a change of the detector's input too.
  NodeSnapshot renamed = Snapshot();
  renamed.devices[0].ports[0].netdevs = {"eth9"};
  component.OnSnapshot(ctx_, renamed);
  EXPECT_EQ(component.observations(), 3u);
}

TEST_F(GidDriftComponentTest, AFailedWriteIsRetriedWhileTheTablesStayTheSame) {
  FakeStateFileWriter failing;
  failing.fail_errno = ENOSPC;
  auto store = MakeStore(failing);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  component.OnSnapshot(ctx_, Snapshot());
  failing.fail_errno = 0;  // the disk has room again
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(component.observations(), 1u);
  EXPECT_EQ(failing.writes, 2) << "the failed write, then its retry";
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(failing.writes, 2) << "written: nothing more to write";
}

TEST_F(GidDriftComponentTest, ACorruptStateFileIsAWarningAndAFreshBaseline) {
  root_.WriteFile("state.json", "garbage");
  auto store = MakeStore(writer_);
  GidDriftComponent component(*store, nullptr, {});
  ASSERT_TRUE(component.Start(ctx_).ok());
  component.OnSnapshot(ctx_, Snapshot());
  EXPECT_EQ(ValueOf(Metrics(component), "rocewatch_state_persistence_failures_total", {}), 1.0);
  EXPECT_EQ(component.state().tables.size(), 1u);
}

TEST_F(GidDriftComponentTest, VerbsAsyncEventsRequestASnapshot) {
  FakeVerbsApi api;
  api.AddDevice("mlx5_0");
  VerbsDeviceSet devices(api);
  devices.Refresh();
  auto store = MakeStore(writer_);
  {
    GidDriftComponent component(*store, &devices, {});
    ASSERT_TRUE(component.Start(ctx_).ok());
    api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
    ctx_.loop().RunOnce(milliseconds(0));
    EXPECT_EQ(ctx_.snapshot_requests, (std::vector<std::string>{"verbs gid_change mlx5_0/1"}));
    component.Stop(ctx_);
  }
  api.PushAsyncEvent("mlx5_0", {VerbsAsyncEventKind::kGidChange, 1, 18});
  EXPECT_EQ(ctx_.loop().RunOnce(milliseconds(0)).fds_dispatched, 0) << "unwatched on stop";
}

}  // namespace
}  // namespace rocewatch
