// Micro-benchmarks of the pure sysfs parsers (lib/sysfs/sysfs_parsers.h) on the texts the kernel
// prints, one call per iteration.

#include <benchmark/benchmark.h>

#include <string>

#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

void BM_ParseGid(benchmark::State& state) {
  const std::string text = "0000:0000:0000:0000:0000:ffff:0a00:0302\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseGid(text));
}
BENCHMARK(BM_ParseGid);

void BM_ParseZeroGid(benchmark::State& state) {
  const std::string text = "0000:0000:0000:0000:0000:0000:0000:0000\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseGid(text));
}
BENCHMARK(BM_ParseZeroGid);

void BM_ParseGidType(benchmark::State& state) {
  const std::string text = "RoCE v2\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseGidType(text));
}
BENCHMARK(BM_ParseGidType);

void BM_ParseNetdevName(benchmark::State& state) {
  const std::string text = "ens16f0np0\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseNetdevName(text));
}
BENCHMARK(BM_ParseNetdevName);

void BM_ParseCounterValue(benchmark::State& state) {
  const std::string text = "18446744073709551615\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseCounterValue(text));
}
BENCHMARK(BM_ParseCounterValue);

void BM_ParseCounterValueNoPma(benchmark::State& state) {
  const std::string text = "N/A (no PMA)\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParseCounterValue(text));
}
BENCHMARK(BM_ParseCounterValueNoPma);

void BM_ParsePortState(benchmark::State& state) {
  const std::string text = "4: ACTIVE\n";
  for (auto _ : state) benchmark::DoNotOptimize(ParsePortState(text));
}
BENCHMARK(BM_ParsePortState);

}  // namespace
}  // namespace rocewatch
