#!/usr/bin/env python3
"""Two rocewatch binaries side by side: the same 16-rail tree, the same namespace of 16 veth rails,
the daemon command line of bench/harness.py, CPU of each over the same 60 s windows (the
schedstat of its threads), so that both see the same machine load; the two are started in
alternating order. Prints each run and the medians of each and of their ratio.

Usage (root): bench/side_by_side.py BINARY_A BINARY_B FIXTURE_TOOL [RUNS]
Each daemon also scans the other's descriptors (the consumer scan), so both figures are higher
than alone: compare the ratio."""
import glob
import os
import statistics
import subprocess
import sys
import time

A, B, FIX = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
W = f"/dev/shm/rocewatch-side-by-side.{os.getpid()}"
NS = f"rwside-{os.getpid()}"
os.makedirs(W)
subprocess.run([FIX, "rails", "16", W + "/node"], check=True, stdout=subprocess.DEVNULL)
for d in glob.glob(W + "/node/sys/class/infiniband/*"):
    open(d + "/board_id", "w").write("MT_0000000838\n")
def ip(*a): subprocess.run(["ip", "-n", NS] + list(a), check=True)
subprocess.run(["ip", "netns", "add", NS], check=True)
procs = []
try:
    ip("link", "set", "lo", "up")
    for r in range(16):
        ip("link", "add", f"ens{r+1}f0np0", "type", "veth", "peer", "name", f"rwp{r}")
        ip("link", "set", f"rwp{r}", "up"); ip("link", "set", f"ens{r+1}f0np0", "up")
        ip("addr", "add", f"10.0.{r}.2/24", "dev", f"ens{r+1}f0np0")
    def cpu(pid):
        t = 0
        for f in glob.glob(f"/proc/{pid}/task/*/schedstat"):
            t += int(open(f).read().split()[0])
        return t / 1e9
    res = {A: [], B: []}
    for run in range(runs):
        ds = {}
        order = [A, B] if run % 2 == 0 else [B, A]
        for i, binary in enumerate(order):
            port = 19900 + i
            p = subprocess.Popen(["ip", "netns", "exec", NS, binary, "run", "--sysfs-root", W + "/node/sys",
                                  "--gid-source", "sysfs", "--interval", "1s", "--listen", f"127.0.0.1:{port}",
                                  "--state-file", f"{W}/state-{run}-{i}.json", "--log-level", "warn"],
                                 stdout=open(f"{W}/d{run}-{i}.log", "w"), stderr=subprocess.STDOUT)
            procs.append(p); ds[binary] = p
        time.sleep(15)
        c0 = {b: cpu(p.pid) for b, p in ds.items()}; t0 = time.monotonic()
        time.sleep(60)
        c1 = {b: cpu(p.pid) for b, p in ds.items()}; t1 = time.monotonic()
        la = open("/proc/loadavg").read().split()[:3]
        for b in ds:
            res[b].append((c1[b] - c0[b]) / (t1 - t0) * 100)
        print(f"run {run+1}: A {res[A][-1]:.3f}%  B {res[B][-1]:.3f}%  ratio B/A {res[B][-1]/res[A][-1]:.2f}  loadavg {' '.join(la)}", flush=True)
        for p in ds.values():
            p.terminate(); p.wait(timeout=10)
    ra = [b / a for a, b in zip(res[A], res[B])]
    print(f"A {A}: median {statistics.median(res[A]):.3f}% (min {min(res[A]):.3f}, max {max(res[A]):.3f})")
    print(f"B {B}: median {statistics.median(res[B]):.3f}% (min {min(res[B]):.3f}, max {max(res[B]):.3f})")
    print(f"ratio B/A per run: median {statistics.median(ra):.2f} (min {min(ra):.2f}, max {max(ra):.2f})")
finally:
    for p in procs:
        if p.poll() is None: p.kill()
    subprocess.run(["ip", "netns", "del", NS])
    subprocess.run(["rm", "-rf", W])
