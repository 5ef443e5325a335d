#!/usr/bin/env python3
"""Prints Google Benchmark JSON (with --benchmark_repetitions) as median, min and max per
benchmark, CPU time, with the user counters of the last repetition."""

import json
import statistics
import sys
from collections import OrderedDict

UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
SKIP = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
        "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index",
        "aggregate_name", "aggregate_unit", "error_occurred", "error_message"}


def pretty(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main(path):
    with open(path) as f:
        data = json.load(f)
    runs = OrderedDict()
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        if b.get("error_occurred"):
            print(f"  {b['run_name']}: ERROR {b.get('error_message')}")
            continue
        runs.setdefault(b["run_name"], []).append(b)
    print(f"  {'benchmark':<36} {'CPU median':>11} {'min':>10} {'max':>10}  counters")
    for name, reps in runs.items():
        cpu = [r["cpu_time"] * UNITS[r["time_unit"]] for r in reps]
        counters = {k: v for k, v in reps[-1].items() if k not in SKIP and isinstance(v, (int, float))}
        shown = " ".join(f"{k}={v:.6g}" for k, v in counters.items())
        print(f"  {name:<36} {pretty(statistics.median(cpu)):>11} {pretty(min(cpu)):>10} "
              f"{pretty(max(cpu)):>10}  {shown}")
    ctx = data.get("context", {})
    if ctx.get("library_build_type") == "debug":
        print("  (Debian's libbenchmark reports itself as a debug build; the code measured is Release)")


if __name__ == "__main__":
    main(sys.argv[1])
