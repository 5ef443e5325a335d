#!/usr/bin/env bash
# rocewatch benchmarks (make bench): micro-benchmarks, then the whole daemon on a simulated 16-RNIC
# node: steady-state cost, detection latency, scrape cost beside node_exporter.
#   bench/run.sh BUILD_DIR            (a Release tree configured with -DROCEWATCH_BUILD_BENCH=ON)
# Environment (defaults give the published run, under 10 minutes on 2 cores):
#   BENCH_RUNS=3 BENCH_STEADY_SECONDS=60 BENCH_FLAPS=20 BENCH_SCRAPES=100
#   BENCH_SECTIONS=micro,steady,latency,scrape   BENCH_JSON=path (raw figures as JSON)
# As root, the 16 RNIC netdevs are veth pairs in a network namespace created here (rwbench-<pid>),
# plus an empty one for the poll-only figure; without root or netns, those parts are skipped.
# Every process started here is stopped and every namespace deleted on exit, also on Ctrl-C.
set -euo pipefail

build=$(cd "${1:?usage: bench/run.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
binary=$build/rocewatch
fixture_tool=$build/tests/rocewatch-fixture
micro=$build/bench/rocewatch_micro_bench
for f in "$binary" "$fixture_tool" "$micro"; do
  [ -x "$f" ] || { echo "bench: $f not built (cmake --build $build --target bench_all)" >&2; exit 2; }
done

runs=${BENCH_RUNS:-3}
sections=${BENCH_SECTIONS:-micro,steady,latency,scrape}
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
work=$(mktemp -d "$shm/rocewatch-bench.XXXXXX")
netns="" quiet_netns=""

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  [ -n "${harness_pid:-}" ] && kill "$harness_pid" 2>/dev/null && wait "$harness_pid" 2>/dev/null
  [ -n "$netns" ] && ip netns del "$netns" 2>/dev/null
  [ -n "$quiet_netns" ] && ip netns del "$quiet_netns" 2>/dev/null
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== rocewatch benchmarks: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), kernel $(uname -r)"
echo "binary: $binary ($("$binary" version 2>/dev/null | head -1))"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ ,$sections, == *,micro,* ]]; then
  echo
  echo "== 4. Micro-benchmarks (Google Benchmark, $runs repetitions: median, min, max)"
  (cd "$work" && TMPDIR=$shm "$micro" --benchmark_repetitions="$runs" --benchmark_min_time=0.2 \
     --benchmark_format=json --benchmark_out="$work/micro.json" --benchmark_out_format=json \
     >/dev/null 2>"$work/micro.err") || { cat "$work/micro.err" >&2; exit 1; }
  python3 "$here/micro_summary.py" "$work/micro.json"
fi

if [ "$(id -u)" -eq 0 ] && ip netns add "rwbench-$$" 2>/dev/null; then
  netns=rwbench-$$
  ip netns add "rwbench-$$-q"
  quiet_netns=rwbench-$$-q
  ip -n "$netns" link set lo up
  ip -n "$quiet_netns" link set lo up
else
  echo "bench: not root or no network namespaces: no veth netdevs, no events-mode latency" >&2
fi

harness_sections=${sections//micro/}
python3 "$here/harness.py" --binary "$binary" --fixture-tool "$fixture_tool" --work "$work" \
  --netns "$netns" --quiet-netns "$quiet_netns" --runs "$runs" \
  --steady-seconds "${BENCH_STEADY_SECONDS:-60}" --flaps "${BENCH_FLAPS:-20}" \
  --scrapes "${BENCH_SCRAPES:-100}" --sections "${harness_sections:-none}" \
  ${BENCH_JSON:+--json "$BENCH_JSON"} &
harness_pid=$!
wait "$harness_pid"
harness_pid=""
