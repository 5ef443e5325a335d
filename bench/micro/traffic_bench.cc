// The traffic detector (lib/features/traffic/traffic_detector.h) on the 16-rail node: one
// observation per iteration (samples from the snapshot + Observe, as the component does per poll),
// counters advancing as under steady load (every port sending), a second apart.

#include <benchmark/benchmark.h>

#include "rail_node_tree.h"
#include "sysfs/sysfs_inventory.h"
#include "traffic/traffic_detector.h"
#include "traffic/traffic_samples.h"

namespace rocewatch {
namespace {

NodeSnapshot RailNodeCounters() {
  PosixFileSystem fs;
  SysfsInventory inventory(fs, RailNodeSysfsRoot());
  StatusOr<NodeSnapshot> snapshot = inventory.Read(nullptr, /*read_counters=*/true);
  return snapshot.ok() ? std::move(snapshot).value() : NodeSnapshot{};
}

void BM_TrafficObserve(benchmark::State& state) {
  NodeSnapshot snapshot = RailNodeCounters();
  if (snapshot.devices.size() != kBenchRails) return state.SkipWithError("fixture: wrong devices");
  TrafficDetector detector{TrafficOptions{}};
  const std::map<std::string, NetdevState> no_netdevs;
  MonoTime now{};
  constexpr uint64_t kBytesPerSecond = 25'000'000'000;  // 200 Gb/s per rail
  for (auto _ : state) {
    now += std::chrono::seconds(1);
    for (Device& device : snapshot.devices) {
      for (Port& port : device.ports) {
        *port.counters.transmit_bytes += kBytesPerSecond;
        *port.counters.receive_bytes += kBytesPerSecond;
      }
    }
    std::vector<PortTrafficSample> samples = TrafficSamplesFrom(snapshot, no_netdevs);
    detector.Observe(now, samples);
  }
}
BENCHMARK(BM_TrafficObserve)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
