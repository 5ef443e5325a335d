// The GID drift detector (lib/features/gid_drift/gid_drift_detector.h) on the 16-rail node's
// tables: a steady poll (nothing changed: the every-second case) and a poll in which one rail's
// IPv4 GIDs moved from 2/3 to 4/5 (the NetworkManager flap).

#include <benchmark/benchmark.h>

#include "gid_drift/gid_drift_component.h"
#include "gid_drift/gid_drift_detector.h"
#include "rail_node_tree.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {
namespace {

std::vector<GidPortTable> RailNodeTables() {
  PosixFileSystem fs;
  SysfsInventory inventory(fs, RailNodeSysfsRoot());
  SysfsGidTableSource gids(fs, RailNodeSysfsRoot());
  StatusOr<NodeSnapshot> snapshot = inventory.Read(&gids, /*read_counters=*/false);
  return snapshot.ok() ? GidPortTablesOf(*snapshot) : std::vector<GidPortTable>{};
}

// The same tables with rail 0's entries at 2/3 moved to 4/5.
std::vector<GidPortTable> MovedRailZero(std::vector<GidPortTable> tables) {
  for (GidEntry& entry : tables.at(0).entries)
    if (entry.index == 2 || entry.index == 3) entry.index += 2;
  return tables;
}

void BM_GidDriftObserveSteady(benchmark::State& state) {
  const std::vector<GidPortTable> tables = RailNodeTables();
  if (tables.size() != kBenchRails) return state.SkipWithError("fixture: wrong port count");
  GidDriftDetector detector;
  detector.Observe(tables, 0);
  double now = 1;
  for (auto _ : state) benchmark::DoNotOptimize(detector.Observe(tables, now++));
}
BENCHMARK(BM_GidDriftObserveSteady)->Unit(benchmark::kMicrosecond);

// Each iteration: one rail moves away and back (two observations, two drifts).
void BM_GidDriftObserveMoveAndBack(benchmark::State& state) {
  const std::vector<GidPortTable> tables = RailNodeTables();
  if (tables.size() != kBenchRails) return state.SkipWithError("fixture: wrong port count");
  const std::vector<GidPortTable> moved = MovedRailZero(tables);
  GidDriftDetector detector;
  detector.Observe(tables, 0);
  double now = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(detector.Observe(moved, now++));
    benchmark::DoNotOptimize(detector.Observe(tables, now++));
  }
}
BENCHMARK(BM_GidDriftObserveMoveAndBack)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
