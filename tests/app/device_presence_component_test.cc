// An RDMA port that leaves sysfs while the daemon runs: a critical finding, a metric and an event,
// held poll after poll until the port returns, and across a restart of the daemon on the same
// boot (the state file keeps the ports seen). A Monitor on a fake clock and a scripted snapshot
// source; the state file in a fake file system. A "restart" builds every object but the host and
// the file system again.
#include "inventory/device_presence_component.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <memory>

#include "daemon/monitor.h"
#include "gid_drift/gid_drift_component.h"
#include "support/fake_clock.h"
#include "support/fake_file_system.h"
#include "support/fake_snapshot_source.h"
#include "support/http_client.h"
#include "support/node_builder.h"

namespace rocewatch {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr const char* kPresenceStatePath = "/var/lib/rocewatch/state.json";
constexpr const char* kPresenceBootIdPath = "/proc/sys/kernel/random/boot_id";
constexpr const char* kMlx51Missing =
    "rocewatch_device_missing{device=\"mlx5_1\",port=\"1\",netdev=\"rnic1\"}";

// A StateFileWriter onto the fake file system, so that the next run reads what this one wrote.
class PresenceStateWriter final : public StateFileWriter {
 public:
  explicit PresenceStateWriter(FakeFileSystem& fs) : fs_(fs) {}
  Status WriteAtomically(const std::string& path, const std::string& content) override {
    fs_.AddFile(path, content);
    return Status::Ok();
  }

 private:
  FakeFileSystem& fs_;
};

// One run of the daemon: the device presence component, and the GID drift component that owns
// the state file (with `persist`).
class PresenceRun {
 public:
  PresenceRun(FakeClock& clock, FakeSnapshotSource& host, FakeFileSystem& fs, bool persist)
      : clock_(clock),
        loop_(clock),
        monitor_(loop_, host, {seconds(1), std::chrono::milliseconds(100)}),
        writer_(fs),
        store_(fs, writer_, persist ? kPresenceStatePath : "", kPresenceBootIdPath) {
    auto presence = std::make_unique<DevicePresenceComponent>();
    if (persist) presence->KeepIncidents();
    GidDriftOptions drift;
    if (persist) drift.kept_incidents = {StatePart::kSeenPorts};
    monitor_.AddComponent(std::move(presence));
    monitor_.AddComponent(std::make_unique<GidDriftComponent>(store_, nullptr, drift));
  }
  ~PresenceRun() { monitor_.Stop(); }

  void Start() { ASSERT_TRUE(monitor_.Start().ok()); }
  void Poll(Duration after = seconds(1)) {
    clock_.Advance(after);
    ASSERT_TRUE(monitor_.PollNow("test").ok());
  }
  std::optional<double> Sample(const std::string& series) const {
    return FindSample(prometheus::TextSerializer().Serialize(monitor_.BuildExposition()), series);
  }
  const TimedFinding* Finding(const std::string& subject) const {
    for (const TimedFinding& f : monitor_.timed_findings())
      if (f.finding.check == "device_disappeared" && f.finding.subject == subject) return &f;
    return nullptr;
  }
  bool HasEventWith(const std::string& text) const {
    for (const RecordedEvent& e : monitor_.recent_events())
      if (e.what.find(text) != std::string::npos) return true;
    return false;
  }

 private:
  FakeClock& clock_;
  EventLoop loop_;
  Monitor monitor_;
  PresenceStateWriter writer_;
  GidStateStore store_;
};

class DevicePresenceComponentTest : public ::testing::Test {
 protected:
  DevicePresenceComponentTest() : host_(clock_) {
    fs_.AddFile(kPresenceBootIdPath, "boot-a\n");
    for (int r = 0; r < 3; ++r)
      host_.node.devices.push_back(
          RoceDevice("mlx5_" + std::to_string(r), "rnic" + std::to_string(r), {}));
  }
  void RemoveMlx51() {
    std::erase_if(host_.node.devices, [](const Device& d) { return d.name == "mlx5_1"; });
  }

  FakeClock clock_;
  FakeFileSystem fs_;
  FakeSnapshotSource host_;
};

TEST_F(DevicePresenceComponentTest, AVanishedPortStaysCriticalPollAfterPollUntilItReturns) {
  PresenceRun run(clock_, host_, fs_, false);
  run.Start();
  EXPECT_EQ(run.Sample(kMlx51Missing), 0);
  RemoveMlx51();
  run.Poll();
  const TimedFinding* f = run.Finding("mlx5_1/1");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.severity, Severity::kCritical);
  EXPECT_NE(f->finding.message.find("(netdev rnic1) disappeared at 2026-01-01T00:00:01Z"),
            std::string::npos)
      << f->finding.message;
  EXPECT_EQ(run.Sample(kMlx51Missing), 1);
  EXPECT_TRUE(run.HasEventWith(
      "device_disappeared device=mlx5_1 port=1 netdev=rnic1 since=2026-01-01T00:00:01Z"));

  for (int i = 0; i < 90; ++i) run.Poll();  // well past the 30 s the SRE saw, then an hour
  run.Poll(minutes(60));
  f = run.Finding("mlx5_1/1");
  ASSERT_NE(f, nullptr) << "held while the port is missing";
  EXPECT_EQ(f->since_unix_seconds, 1767225601);
  EXPECT_EQ(run.Sample(kMlx51Missing), 1);

  host_.node.devices.insert(host_.node.devices.begin() + 1, RoceDevice("mlx5_1", "rnic1", {}));
  run.Poll();
  EXPECT_EQ(run.Finding("mlx5_1/1"), nullptr);
  EXPECT_EQ(run.Sample(kMlx51Missing), 0);
  EXPECT_TRUE(run.HasEventWith("device_returned device=mlx5_1 port=1 netdev=rnic1 missing since="));
}

TEST_F(DevicePresenceComponentTest, AMissingPortStaysMissingWithItsSinceAcrossARestart) {
  double since = 0;
  {
    PresenceRun first(clock_, host_, fs_, true);
    first.Start();
    RemoveMlx51();
    first.Poll();
    ASSERT_NE(first.Finding("mlx5_1/1"), nullptr);
    since = first.Finding("mlx5_1/1")->since_unix_seconds;
    first.Poll(seconds(30));
  }
  clock_.Advance(seconds(20));
  PresenceRun second(clock_, host_, fs_, true);
  second.Start();
  second.Poll();
  const TimedFinding* f = second.Finding("mlx5_1/1");
  ASSERT_NE(f, nullptr) << "a restart does not forget a missing port";
  EXPECT_EQ(f->since_unix_seconds, since);
  EXPECT_NE(f->finding.message.find("disappeared at 2026-01-01T00:00:01Z"), std::string::npos)
      << f->finding.message;
  EXPECT_EQ(second.Sample(kMlx51Missing), 1);
  EXPECT_EQ(second.Sample(
                "rocewatch_restored_incidents{check=\"device_disappeared\",status=\"confirmed\"}"),
            1);
}

TEST_F(DevicePresenceComponentTest, APortThatVanishedWhileNoDaemonRanIsMissingAfterTheStart) {
  {
    PresenceRun first(clock_, host_, fs_, true);
    first.Start();
    first.Poll();
  }
  RemoveMlx51();
  clock_.Advance(minutes(5));
  PresenceRun second(clock_, host_, fs_, true);
  second.Start();
  const TimedFinding* f = second.Finding("mlx5_1/1");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->finding.message.find("disappeared while rocewatch was not running"),
            std::string::npos)
      << f->finding.message;
  EXPECT_EQ(second.Sample(kMlx51Missing), 1);
}

TEST_F(DevicePresenceComponentTest, AnotherBootStartsFromTheDevicesFoundThen) {
  {
    PresenceRun first(clock_, host_, fs_, true);
    first.Start();
    first.Poll();
  }
  RemoveMlx51();
  fs_.AddFile(kPresenceBootIdPath, "boot-b\n");
  PresenceRun second(clock_, host_, fs_, true);
  second.Start();
  EXPECT_EQ(second.Finding("mlx5_1/1"), nullptr);
  EXPECT_FALSE(second.Sample(kMlx51Missing).has_value());
}

}  // namespace
}  // namespace rocewatch
