// The daemon's sysfs reader (SysfsPoller::PollInto, into the same snapshot poll after poll as the
// daemon does) on the 16-rail tmpfs tree, per kind of poll: the 1 s poll (byte counters only,
// through kept descriptors), the slow-cadence poll (port attributes and every counter), a poll
// after a device event (everything listed again, GID tables read whole as after any event), the
// GID backstop (the used part of each table through kept descriptors) and a whole GID read (as
// after an event and every 5 minutes).
// Counters per iteration: preads of kept descriptors, opens, open/read/close reads and directory
// listings, so the system calls of a poll are counted, not guessed.

#include <benchmark/benchmark.h>

#include "counting_file_system.h"
#include "rail_node_reads.h"
#include "rail_node_tree.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "sysfs/sysfs_poller.h"

namespace rocewatch {
namespace {

enum Kind { kBytes = 0, kEverything = 1, kRelist = 2, kGids = 3, kWholeGids = 4 };

void BM_SysfsPoll(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  PosixFileSystem posix(PosixFileSystem::Options{.stop_at_short_read = true});
  CountingFileSystem fs(posix);
  SysfsGidTableSource gids(fs, RailNodeSysfsRoot(), /*max_open=*/8192);
  SysfsPoller poller(fs, RailNodeSysfsRoot(), &gids, /*max_open=*/8192);
  PollScope scope;
  scope.everything = kind == kEverything;
  scope.list = kind == kRelist;
  scope.gids = kind == kGids || kind == kRelist || kind == kWholeGids;
  const bool whole = kind == kRelist || kind == kWholeGids;
  // Warm: the layout is listed and every descriptor opened before measuring.
  if (!poller.Poll(PollScope{.list = true, .everything = true, .gids = true}).ok()) {
    state.SkipWithError("first poll failed");
    return;
  }
  const uint64_t reads0 = fs.reads(), opens0 = fs.opens(), preads0 = fs.preads();
  const uint64_t listings0 = fs.listings();
  if (!MeasureRailNodeReads(state, [&](NodeSnapshot& s) {
        if (whole) gids.ReadWholeTablesNext();
        return poller.PollInto(scope, s);
      }))
    return;
  const double n = static_cast<double>(state.iterations());
  state.counters["preads"] = static_cast<double>(fs.preads() - preads0) / n;
  state.counters["opens"] = static_cast<double>(fs.opens() - opens0) / n;
  state.counters["reads"] = static_cast<double>(fs.reads() - reads0) / n;
  state.counters["listings"] = static_cast<double>(fs.listings() - listings0) / n;
}
BENCHMARK(BM_SysfsPoll)
    ->ArgName("kind")
    ->DenseRange(kBytes, kWholeGids)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace rocewatch
