// The sysfs inventory of a 16-rail node (255-slot GID tables, counters, hw_counters) read through
// PosixFileSystem from a tmpfs fixture: the whole poll, and its GID and counter parts alone, so
// that the share of the GID tables in a poll is measured, not guessed. Counters per iteration:
// file reads, directory listings, stat calls.

#include <benchmark/benchmark.h>

#include "counting_file_system.h"
#include "rail_node_reads.h"
#include "rail_node_tree.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_inventory.h"

namespace rocewatch {
namespace {

enum Parts { kStructure = 0, kGids = 1, kCounters = 2, kAll = kGids | kCounters };

void ReportCalls(benchmark::State& state, const CountingFileSystem& fs) {
  const double n = static_cast<double>(state.iterations());
  state.counters["reads"] = static_cast<double>(fs.reads()) / n;
  state.counters["listings"] = static_cast<double>(fs.listings()) / n;
  state.counters["stats"] = static_cast<double>(fs.stats() + fs.links()) / n;
}

// Second argument: PosixFileSystem::Options::stop_at_short_read (the daemon sets it).
void BM_InventoryRead(benchmark::State& state) {
  const int parts = static_cast<int>(state.range(0));
  PosixFileSystem posix(PosixFileSystem::Options{.stop_at_short_read = state.range(1) != 0});
  CountingFileSystem fs(posix);
  SysfsInventory inventory(fs, RailNodeSysfsRoot());
  SysfsGidTableSource gids(fs, RailNodeSysfsRoot());
  const bool measured = MeasureRailNodeReads(state, [&](NodeSnapshot& out) {
    StatusOr<NodeSnapshot> read =
        inventory.Read((parts & kGids) ? &gids : nullptr, (parts & kCounters) != 0);
    if (!read.ok()) return read.status();
    out = std::move(read).value();  // a new snapshot per read, as `diagnose` takes them
    return Status::Ok();
  });
  if (measured) ReportCalls(state, fs);
}
BENCHMARK(BM_InventoryRead)
    ->ArgNames({"parts", "short_read_ends"})
    ->ArgsProduct({{kAll, kGids, kCounters, kStructure}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// One device's GID table alone (255 gids/ files, attributes of the valid entries).
void BM_SysfsGidTableReadDevice(benchmark::State& state) {
  PosixFileSystem posix;
  CountingFileSystem fs(posix);
  SysfsGidTableSource gids(fs, RailNodeSysfsRoot());
  for (auto _ : state) {
    StatusOr<GidTableRead> read = gids.ReadDevice("mlx5_0");
    if (!read.ok()) {
      state.SkipWithError(read.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(read);
  }
  ReportCalls(state, fs);
}
BENCHMARK(BM_SysfsGidTableReadDevice)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
