// The daemon's in-memory work on a 16-rail node, with the component set of `rocewatch run`
// (daemon/components.h, so every detector on main is included): one poll cycle without I/O
// (components' OnSnapshot and the findings' times, with the exposition and the findings document
// only marked stale as the daemon does, or, as the baselines of the same run, the findings
// document built after every poll, and both built after every poll), the exposition build alone,
// the findings document build alone, and what one scrape does before HTTP (a copy of the
// families + text serialization). Counters: series exposed, bytes served.

#include <benchmark/benchmark.h>
#include <prometheus/text_serializer.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/components.h"
#include "daemon/monitor.h"
#include "export/daemon_findings.h"
#include "export/exposition_writer.h"
#include "rail_node_tree.h"
#include "support/fake_clock.h"
#include "support/fake_host_env.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {
namespace {

// Serves one snapshot read from the fixture tree, every time.
class FixedSnapshotSource final : public SnapshotSource {
 public:
  explicit FixedSnapshotSource(NodeSnapshot snapshot) : snapshot_(std::move(snapshot)) {}
  StatusOr<NodeSnapshot> Take() override { return snapshot_; }
  const char* gid_source_name() const override { return "sysfs"; }

 private:
  NodeSnapshot snapshot_;
};

NodeSnapshot ReadRailNode() {
  PosixFileSystem fs;
  SysfsInventory inventory(fs, RailNodeSysfsRoot());
  SysfsGidTableSource gids(fs, RailNodeSysfsRoot());
  StatusOr<NodeSnapshot> snapshot = inventory.Read(&gids, /*read_counters=*/true);
  return snapshot.ok() ? std::move(snapshot).value() : NodeSnapshot{};
}

// What the daemon builds after every poll: nothing (both on demand, as `rocewatch run` does now),
// the findings document (the daemon before it was built on demand), or both (before that).
enum class BuiltEveryPoll { kNothing = 0, kFindings = 1, kExpositionAndFindings = 2 };

// The findings document as GET /api/v1/findings serves it.
std::string FindingsDocument(const Monitor& monitor) {
  return DaemonFindingsToJson(monitor.timed_findings(), monitor.recent_events(), "boot")
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A started Monitor over the 16-rail snapshot with the daemon's components (no state file).
class RailNodeMonitor {
 public:
  // `events`: event lines recorded after the start (the daemon keeps the last 256: a node that
  // flapped or drifted a while ago serves them all in its findings document).
  explicit RailNodeMonitor(BuiltEveryPoll built = BuiltEveryPoll::kNothing, int events = 0)
      : source_(ReadRailNode()), loop_(clock_), monitor_(loop_, source_, MonitorOptions{}) {
    spdlog::set_level(spdlog::level::warn);
    options_.state_file.clear();
    host_.env().clock = &clock_;
    for (auto& component : BuildComponents({options_, host_.env(), fs_, fs_}).all)
      monitor_.AddComponent(std::move(component));
    monitor_.SetChangeSink([this, built] {
      ++stale_marks_;
      if (built == BuiltEveryPoll::kExpositionAndFindings) exposition_ = monitor_.BuildExposition();
      if (built != BuiltEveryPoll::kNothing) findings_ = FindingsDocument(monitor_);
    });
    started_ = monitor_.Start();
    for (int i = 0; i < events; ++i) {
      monitor_.RecordEvent(i % 2 == 0 ? "ens1f0np0: carrier down (operstate LOWERLAYERDOWN)"
                                      : "gid_drift device=mlx5_0 port=1 netdev=ens1f0np0 "
                                        "gid=0000:0000:0000:0000:0000:ffff:0a00:0002 "
                                        "type=roce_v2 old_index=3 new_index=5",
                           Severity::kInfo);
    }
  }
  ~RailNodeMonitor() { monitor_.Stop(); }

  const Status& started() const { return started_; }
  Monitor& monitor() { return monitor_; }
  FakeClock& clock() { return clock_; }

 private:
  RunOptions options_;
  PosixFileSystem fs_;
  FakeHostEnv host_{fs_};  // no rtnetlink, ethtool or kubelet I/O
  FakeClock clock_;
  FixedSnapshotSource source_;
  EventLoop loop_;
  Monitor monitor_;
  Status started_;
  uint64_t stale_marks_ = 0;
  std::vector<prometheus::MetricFamily> exposition_;
  std::string findings_;
};

size_t SeriesCount(const std::vector<prometheus::MetricFamily>& families) {
  size_t series = 0;
  for (const auto& family : families) series += family.metric.size();
  return series;
}

void BM_MonitorPollCycleWithoutIo(benchmark::State& state) {
  RailNodeMonitor node(static_cast<BuiltEveryPoll>(state.range(0)),
                       static_cast<int>(state.range(1)));
  if (!node.started().ok()) return state.SkipWithError(node.started().ToString().c_str());
  for (auto _ : state) {
    node.clock().Advance(std::chrono::seconds(1));
    benchmark::DoNotOptimize(node.monitor().PollNow("interval"));
  }
}
BENCHMARK(BM_MonitorPollCycleWithoutIo)
    ->ArgNames({"built_every_poll", "events"})
    ->Args({static_cast<int>(BuiltEveryPoll::kNothing), 0})
    ->Args({static_cast<int>(BuiltEveryPoll::kFindings), 0})
    ->Args({static_cast<int>(BuiltEveryPoll::kExpositionAndFindings), 0})
    ->Args({static_cast<int>(BuiltEveryPoll::kNothing), Monitor::kRecentEvents})
    ->Args({static_cast<int>(BuiltEveryPoll::kFindings), Monitor::kRecentEvents})
    ->Unit(benchmark::kMicrosecond);

void BM_BuildExposition(benchmark::State& state) {
  RailNodeMonitor node;
  if (!node.started().ok()) return state.SkipWithError(node.started().ToString().c_str());
  size_t series = 0;
  for (auto _ : state) {
    std::vector<prometheus::MetricFamily> families = node.monitor().BuildExposition();
    series = SeriesCount(families);
    benchmark::DoNotOptimize(families);
  }
  state.counters["series"] = static_cast<double>(series);
}
BENCHMARK(BM_BuildExposition)->Unit(benchmark::kMicrosecond);

// One GET /api/v1/findings on a healthy node: the document built from the last poll, without
// events and with the last 256 kept.
void BM_BuildFindingsDocument(benchmark::State& state) {
  RailNodeMonitor node(BuiltEveryPoll::kNothing, static_cast<int>(state.range(0)));
  if (!node.started().ok()) return state.SkipWithError(node.started().ToString().c_str());
  size_t bytes = 0;
  for (auto _ : state) {
    std::string document = FindingsDocument(node.monitor());
    bytes = document.size();
    benchmark::DoNotOptimize(document);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_BuildFindingsDocument)
    ->ArgName("events")
    ->Arg(0)
    ->Arg(Monitor::kRecentEvents)
    ->Unit(benchmark::kMicrosecond);

// What prometheus-cpp's exposer did per scrape before the HTTP write (the daemon before it wrote
// the text itself, once per change): copy the built families and serialize them to the text format.
void BM_ScrapeCollectAndSerialize(benchmark::State& state) {
  RailNodeMonitor node;
  if (!node.started().ok()) return state.SkipWithError(node.started().ToString().c_str());
  const std::vector<prometheus::MetricFamily> built = node.monitor().BuildExposition();
  prometheus::TextSerializer serializer;
  size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    std::vector<prometheus::MetricFamily> copy = built;  // what a scrape's Collect() returns
    serializer.Serialize(out, copy);
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ScrapeCollectAndSerialize)->Unit(benchmark::kMicrosecond);

// Serializing the 16-rail node's families alone: `serialize` returns the bytes written.
template <typename Serialize>
void SerializeRailNode(benchmark::State& state, Serialize serialize) {
  RailNodeMonitor node;
  if (!node.started().ok()) return state.SkipWithError(node.started().ToString().c_str());
  const std::vector<prometheus::MetricFamily> families = node.monitor().BuildExposition();
  size_t bytes = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bytes = serialize(families));
  state.counters["bytes"] = static_cast<double>(bytes);
}

// prometheus-cpp's TextSerializer (the baseline of the one below).
void BM_TextSerializer(benchmark::State& state) {
  SerializeRailNode(state, [](const std::vector<prometheus::MetricFamily>& families) {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, families);
    return out.str().size();
  });
}
BENCHMARK(BM_TextSerializer)->Unit(benchmark::kMicrosecond);

// The daemon's own writer (export/exposition_writer.h), on the same families.
void BM_WriteExposition(benchmark::State& state) {
  SerializeRailNode(state, [](const std::vector<prometheus::MetricFamily>& families) {
    return WriteExposition(families).size();
  });
}
BENCHMARK(BM_WriteExposition)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
