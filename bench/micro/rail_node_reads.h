#pragma once
// The measured loop shared by the benchmarks that read the 16-rail tree (rail_node_tree.h) into a
// NodeSnapshot: each iteration calls `read(snapshot)` on the same snapshot (as the daemon reads
// into the snapshot before last), a failed read ends the benchmark with its Status as the error,
// and a snapshot without the tree's 16 devices marks the result as wrong (a broken fixture must
// not pass for a fast read).

#include <benchmark/benchmark.h>

#include <cstddef>

#include "core/status.h"
#include "model/node.h"
#include "rail_node_tree.h"

namespace rocewatch {

// Runs the benchmark loop of `state` over read(NodeSnapshot&) -> Status. False if the benchmark
// was ended with an error (the caller then reports no counters).
template <typename Read>
bool MeasureRailNodeReads(benchmark::State& state, Read read) {
  NodeSnapshot snapshot;
  size_t devices = 0;
  for (auto _ : state) {
    Status status = read(snapshot);
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      return false;
    }
    devices = snapshot.devices.size();
    benchmark::DoNotOptimize(snapshot);
  }
  if (devices != static_cast<size_t>(kBenchRails)) {
    state.SkipWithError("fixture: wrong device count");
    return false;
  }
  return true;
}

}  // namespace rocewatch
