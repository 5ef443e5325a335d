#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build for a set time each, FUZZ_JOBS at a time.
#   [FUZZ_JOBS=N] scripts/run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]
# Each target starts from its committed seed corpus (fuzz/corpus/<name>/) copied into
# BUILD_DIR/fuzz-work/<name>/corpus, so new inputs never dirty the source tree. A crash, leak,
# timeout or violated invariant leaves its input in BUILD_DIR/fuzz-work/<name>/ (crash-*, leak-*,
# timeout-*) and fails the run: fix the bug and add the input to fuzz/corpus/<name>/, where
# `make test` replays every seed (ctest fuzz_seeds.<name>) as a regression test.
set -euo pipefail
build=${1:?usage: run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
source_dir="$(cd "$(dirname "$0")/.." && pwd)"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for bin in "$build"/fuzz/fuzz_*; do [ -x "$bin" ] && targets+=("$(basename "$bin" | sed 's/^fuzz_//')"); done
fi
[ ${#targets[@]} -gt 0 ] || { echo "run-fuzzers: no fuzz targets in $build/fuzz" >&2; exit 1; }

# Targets run FUZZ_JOBS at a time (default: one per core); each is single-threaded, so this
# divides the wall time without taking any target's time. Each target's log is printed whole
# when it ends, never interleaved.
jobs=${FUZZ_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "run-fuzzers: FUZZ_JOBS must be a positive number, not '$jobs'" >&2; exit 1; }

fuzz_one() {
  local name=$1 work="$build/fuzz-work/$1"
  mkdir -p "$work/corpus"
  [ -d "$source_dir/fuzz/corpus/$name" ] && cp -n "$source_dir/fuzz/corpus/$name"/* "$work/corpus/" 2>/dev/null || true
  # -detect_leaks stays on (LeakSanitizer); -timeout: one input taking >10 s is a hang.
  if "$build/fuzz/fuzz_$name" "$work/corpus" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 -artifact_prefix="$work/" \
      >"$work/log" 2>&1; then
    echo 0 >"$work/status"
  else
    echo 1 >"$work/status"
  fi
}

report_one() {
  local name=$1 work="$build/fuzz-work/$1"
  echo "== fuzz_$name for ${seconds}s"
  if [ "$(cat "$work/status" 2>/dev/null)" != 0 ]; then
    failed+=("$name")
    tail -n 40 "$work/log" >&2
  fi
  grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$work/log" | tail -n 2 || true
}

failed=()
running=()
for name in "${targets[@]}"; do
  rm -f "$build/fuzz-work/$name/status"
  fuzz_one "$name" &
  running+=("$!:$name")
  if [ ${#running[@]} -ge "$jobs" ]; then
    wait "${running[0]%%:*}" || true
    report_one "${running[0]#*:}"
    running=("${running[@]:1}")
  fi
done
for entry in "${running[@]}"; do
  wait "${entry%%:*}" || true
  report_one "${entry#*:}"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run-fuzzers: FAILED: ${failed[*]} (inputs in $build/fuzz-work/<name>/)" >&2
  exit 1
fi
echo "run-fuzzers: ${#targets[@]} target(s) clean for ${seconds}s each"
