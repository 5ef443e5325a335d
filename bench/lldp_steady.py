#!/usr/bin/env python3
"""What LLDP receive costs a 16-rail daemon in steady state, side by side in one run.

Four daemons of the same binary run at once on the same 16-rail fixture tree, each in a network
namespace of its own holding the 16 RNIC netdevs as veth pairs (ens<r>f0np0 <-> rwp<r-1>):
  off    --no-lldp, in a namespace where nothing sends LLDP (the daemon as it was before LLDP)
  off2   the same as off, in a namespace of its own: the control (off2-off is the noise floor)
  quiet  LLDP on (16 receive sockets), in a namespace where nothing sends LLDP
  lldp   LLDP on, and Debian's lldpd on the 16 peers sends a frame on each every TX seconds
CPU of each over the same windows (schedstat of its threads, nanoseconds), so that all three see
the same machine load; the start order rotates. Before each window the `lldp` daemon must show 16
neighbors. Prints each run and the medians of lldp-off, quiet-off, lldp-quiet and off2-off, in
percent of one core, and the CPU per frame received (lldp-quiet over the frames counted).

Usage (root): bench/lldp_steady.py BINARY FIXTURE_TOOL [RUNS [WINDOW_SECONDS [TX_SECONDS]]]
Defaults: 5 runs, 120 s windows, a frame every 30 s (lldpd's default transmit interval).
Every process started is stopped and every namespace deleted on exit."""
import glob
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

BINARY, FIXTURE = sys.argv[1], sys.argv[2]
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
WINDOW = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0
TX = int(sys.argv[5]) if len(sys.argv) > 5 else 30
RAILS = 16
WORK = f"/dev/shm/rocewatch-lldp-bench.{os.getpid()}"
NAMESPACES = {"off": f"rwl-off-{os.getpid()}", "off2": f"rwl-off2-{os.getpid()}",
              "quiet": f"rwl-quiet-{os.getpid()}", "lldp": f"rwl-lldp-{os.getpid()}"}
PORTS = {"off": 19910, "off2": 19913, "quiet": 19911, "lldp": 19912}
procs = []


def run(*args):
    subprocess.run(list(args), check=True, stdout=subprocess.DEVNULL)


def cpu_seconds(pid):
    total = 0
    for f in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            total += int(open(f).read().split()[0])
        except (OSError, ValueError):
            pass  # a thread that ended between the listing and the read
    return total / 1e9


def scrape(name):
    ns = NAMESPACES[name]
    out = subprocess.run(["ip", "netns", "exec", ns, "curl", "-fsS", "--max-time", "2",
                          f"http://127.0.0.1:{PORTS[name]}/metrics"],
                         capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else ""


def sum_of(text, metric):
    return sum(float(m.group(1)) for m in
               re.finditer(r"^" + re.escape(metric) + r"(?:\{[^}]*\})? (\S+)$", text, re.M))


def count_of(text, metric):
    return len(re.findall(r"^" + re.escape(metric) + r"\{", text, re.M))


def stop(p):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def main():
    os.makedirs(WORK)
    run(FIXTURE, "rails", str(RAILS), WORK + "/node")
    for d in glob.glob(WORK + "/node/sys/class/infiniband/*"):
        open(d + "/board_id", "w").write("MT_0000000838\n")
    for ns in NAMESPACES.values():
        run("ip", "netns", "add", ns)
        run("ip", "-n", ns, "link", "set", "lo", "up")
        for r in range(RAILS):
            run("ip", "-n", ns, "link", "add", f"ens{r + 1}f0np0", "type", "veth", "peer", "name",
                f"rwp{r}")
            run("ip", "-n", ns, "link", "set", f"rwp{r}", "up")
            run("ip", "-n", ns, "link", "set", f"ens{r + 1}f0np0", "up")
            run("ip", "-n", ns, "addr", "add", f"10.0.{r}.2/24", "dev", f"ens{r + 1}f0np0")
    # One lldpd as the 16 leaves: configured before its first frame (-O), as in the tests.
    os.chmod(WORK, 0o711)  # lldpd's own user reads the configuration and reaches its socket
    conf = WORK + "/lldpd.conf"
    open(conf, "w").write("configure system hostname leaf-bench\n"
                          "configure system capabilities enabled bridge,router\n"
                          "configure lldp portidsubtype ifname\n"
                          f"configure lldp tx-interval {TX}\n")
    os.chmod(conf, 0o644)
    lldpd = subprocess.Popen(["ip", "netns", "exec", NAMESPACES["lldp"], "lldpd", "-d", "-I",
                              "rwp*", "-u", WORK + "/lldpd.sock", "-O", conf],
                             stdout=open(WORK + "/lldpd.log", "w"), stderr=subprocess.STDOUT)
    procs.append(lldpd)
    print(f"16 rails; lldpd sends on each every {TX} s; {RUNS} runs of {WINDOW:.0f} s; "
          f"load average {' '.join(open('/proc/loadavg').read().split()[:3])}", flush=True)
    results = {"off": [], "off2": [], "quiet": [], "lldp": []}
    per_frame_us = []
    order = ["off", "off2", "quiet", "lldp"]
    for n in range(RUNS):
        daemons = {}
        for name in order[n % 4:] + order[:n % 4]:
            args = ["ip", "netns", "exec", NAMESPACES[name], BINARY, "run", "--sysfs-root",
                    WORK + "/node/sys", "--gid-source", "sysfs", "--interval", "1s", "--listen",
                    f"127.0.0.1:{PORTS[name]}", "--api-socket", "", "--state-file",
                    f"{WORK}/state-{n}-{name}.json", "--log-level", "warn"]
            if name in ("off", "off2"):
                args.append("--no-lldp")
            p = subprocess.Popen(args, stdout=open(f"{WORK}/{name}-{n}.log", "w"),
                                 stderr=subprocess.STDOUT)
            procs.append(p)
            daemons[name] = p
        # Warm-up: past the first seconds' full GID reads, and every rail's neighbor known.
        deadline = time.monotonic() + 15 + 3 * TX
        time.sleep(15)
        while count_of(scrape("lldp"), "rocewatch_rail_neighbor_info") < RAILS:
            if time.monotonic() > deadline:
                sys.exit("the lldp daemon did not see 16 neighbors; lldpd log: " + WORK + "/lldpd.log")
            time.sleep(1)
        frames0 = sum_of(scrape("lldp"), "rocewatch_lldp_frames_total")
        c0 = {k: cpu_seconds(p.pid) for k, p in daemons.items()}
        t0 = time.monotonic()
        time.sleep(WINDOW)
        c1 = {k: cpu_seconds(p.pid) for k, p in daemons.items()}
        t1 = time.monotonic()
        frames = sum_of(scrape("lldp"), "rocewatch_lldp_frames_total") - frames0
        quiet_frames = sum_of(scrape("quiet"), "rocewatch_lldp_frames_total")
        for k in daemons:
            results[k].append((c1[k] - c0[k]) / (t1 - t0) * 100)
        if frames > 0:
            per_frame_us.append((c1["lldp"] - c0["lldp"] - (c1["quiet"] - c0["quiet"])) /
                                frames * 1e6)
        la = " ".join(open("/proc/loadavg").read().split()[:3])
        print(f"run {n + 1}: off {results['off'][-1]:.4f}%  off2 {results['off2'][-1]:.4f}%  "
              f"quiet {results['quiet'][-1]:.4f}%  "
              f"lldp {results['lldp'][-1]:.4f}%  lldp-off {results['lldp'][-1] - results['off'][-1]:+.4f}  "
              f"frames {frames:.0f} ({frames / (t1 - t0):.2f}/s; quiet saw {quiet_frames:.0f})  "
              f"loadavg {la}", flush=True)
        for p in daemons.values():
            stop(p)

    def summary(label, values):
        print(f"{label}: median {statistics.median(values):+.4f}% of a core "
              f"(min {min(values):+.4f}, max {max(values):+.4f})")
    for k in order:
        summary(f"{k:>5}", results[k])
    summary("lldp - off  ", [b - a for a, b in zip(results["off"], results["lldp"])])
    summary("quiet - off ", [b - a for a, b in zip(results["off"], results["quiet"])])
    summary("lldp - quiet", [b - a for a, b in zip(results["quiet"], results["lldp"])])
    summary("off2 - off  ", [b - a for a, b in zip(results["off"], results["off2"])])
    if per_frame_us:
        print(f"CPU per frame received (lldp - quiet): median {statistics.median(per_frame_us):.1f} us "
              f"(min {min(per_frame_us):.1f}, max {max(per_frame_us):.1f})")


def cleanup(*_):
    for p in procs:
        stop(p)
    for ns in NAMESPACES.values():
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
    subprocess.run(["rm", "-rf", WORK])


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
    finally:
        cleanup()
