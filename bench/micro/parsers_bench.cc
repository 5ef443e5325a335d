// Micro-benchmarks of the pure sysfs parsers (lib/sources/sysfs/sysfs_parsers.h) on the texts the
// kernel prints, one call per iteration.

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

template <class Parser>
void BM_Parse(benchmark::State& state, Parser parse, std::string text) {
  for (auto _ : state) benchmark::DoNotOptimize(parse(text));
}

const auto kGid = [](std::string_view text) { return ParseGid(text); };
const auto kGidType = [](std::string_view text) { return ParseGidType(text); };
const auto kNetdev = [](std::string_view text) { return ParseNetdevName(text); };
const auto kCounter = [](std::string_view text) { return ParseCounterValue(text); };
const auto kPortState = [](std::string_view text) { return ParsePortState(text); };

BENCHMARK_CAPTURE(BM_Parse, Gid, kGid, "0000:0000:0000:0000:0000:ffff:0a00:0302\n");
BENCHMARK_CAPTURE(BM_Parse, ZeroGid, kGid, "0000:0000:0000:0000:0000:0000:0000:0000\n");
BENCHMARK_CAPTURE(BM_Parse, GidType, kGidType, "RoCE v2\n");
BENCHMARK_CAPTURE(BM_Parse, NetdevName, kNetdev, "ens16f0np0\n");
BENCHMARK_CAPTURE(BM_Parse, Counter, kCounter, "18446744073709551615\n");
BENCHMARK_CAPTURE(BM_Parse, CounterNoPma, kCounter, "N/A (no PMA)\n");
BENCHMARK_CAPTURE(BM_Parse, PortState, kPortState, "4: ACTIVE\n");

}  // namespace
}  // namespace rocewatch
