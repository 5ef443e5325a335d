// An address storm through the netlink listener (lib/features/netdev_health/netlink_listener.h) on
// a scripted source: N addresses added to one RNIC netdev, then removed, read the way the daemon
// reads them. The figure to watch is the time per event as N grows: it must stay flat (linear total
// work). Until 2026-12 every event copied the netdev's whole address list, so the per-event time
// grew with N and a 50k-event storm fell minutes behind the kernel (docs/reliability.md).

#include <benchmark/benchmark.h>

#include "core/event_loop.h"
#include "netdev_health/netlink_listener.h"
#include "support/fake_clock.h"
#include "support/fake_rtnetlink_source.h"
#include "support/netlink_builders.h"

namespace rocewatch {
namespace {

std::string NthAddress(int i) {
  return "10." + std::to_string(64 + i / 65536) + "." + std::to_string(i / 256 % 256) + "." +
         std::to_string(i % 256) + "/32";
}

void BM_NetlinkAddressStorm(benchmark::State& state) {
  const int addresses = static_cast<int>(state.range(0));
  std::vector<AddressMessage> adds, removals;
  for (int i = 0; i < addresses; ++i) {
    adds.push_back(MakeAddress(4, NthAddress(i)));
    removals.push_back(MakeAddress(4, NthAddress(i), /*removed=*/true));
  }
  FakeClock clock;
  for (auto _ : state) {
    state.PauseTiming();
    EventLoop loop(clock);
    FakeRtnetlinkSource source;
    source.dump().links = {MakeLink(4, "rnic0", true, 1)};
    NetlinkListener listener(source, clock, {"rnic0"}, NetdevHealthConfig{});
    size_t changes = 0;
    listener.set_on_changes([&](const auto& batch, const auto&) { changes += batch.size(); });
    if (!listener.Start(loop).ok()) return state.SkipWithError("listener did not start");
    changes = 0;  // the start's own change (rnic0 appeared)
    for (const auto& m : adds) source.Push(m);
    for (const auto& m : removals) source.Push(m);
    state.ResumeTiming();
    while (source.queued() > 0) loop.RunOnce(Duration::zero());
    state.PauseTiming();
    listener.Stop();
    state.ResumeTiming();
    if (changes != 2 * adds.size()) return state.SkipWithError("lost changes");
  }
  state.SetItemsProcessed(state.iterations() * 2 * addresses);
}
BENCHMARK(BM_NetlinkAddressStorm)
    ->Arg(1'000)
    ->Arg(25'000)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

}  // namespace
}  // namespace rocewatch
