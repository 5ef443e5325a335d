#!/usr/bin/env bash
# `rocewatch run` under a stand-in for systemd (Type=notify, WatchdogSec=): a datagram socket as
# $NOTIFY_SOCKET and WATCHDOG_USEC=400ms. Expects READY=1 after the first snapshot, WATCHDOG=1
# about every 200 ms from the main loop, and STOPPING=1 then exit 0 on SIGTERM.
source "$(dirname "$0")/deploy_lib.sh"
binary=${ROCEWATCH_BINARY:?ROCEWATCH_BINARY is not set}
need_tool python3 "Debian package python3"
make_loopback_rnic "$work/sys" "4: ACTIVE" yes
mkdir -p "$work/proc" # the daemon's host root is $work: its procfs holds no process

python3 - "$binary" "$work" <<'PY'
import os, signal, socket, subprocess, sys, time

binary, work = sys.argv[1], sys.argv[2]
manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
manager.bind(f"{work}/notify")
env = dict(os.environ, NOTIFY_SOCKET=f"{work}/notify", WATCHDOG_USEC="400000")
env.pop("WATCHDOG_PID", None)
daemon = subprocess.Popen(
    [binary, "run", f"--host-root={work}", "--listen=127.0.0.1:0", "--state-file=",
     "--interval=100ms"], env=env, stdout=subprocess.DEVNULL, stderr=open(f"{work}/daemon.log", "w"))

def receive(deadline):
    manager.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        return manager.recv(4096).decode(), time.monotonic()
    except socket.timeout:
        return None, time.monotonic()

def fail(message):
    daemon.kill()
    daemon.wait()
    print(f"FAIL: {message}\n--- daemon log:\n{open(f'{work}/daemon.log').read()}")
    sys.exit(1)

try:
    message, _ = receive(time.monotonic() + 15)
    if message is None or not message.startswith("READY=1\n"):
        fail(f"expected READY=1 first, got {message!r}")
    print(f"ok   {message!r}")
    # libsystemd is loaded only under a service manager (os/systemd_notifier.cc): here it is.
    maps = open(f"/proc/{daemon.pid}/maps").read()
    if "/libsystemd.so.0" not in maps:
        fail("READY=1 came, but the daemon has not mapped libsystemd.so.0")
    pings = []
    end = time.monotonic() + 2.0
    while time.monotonic() < end:
        message, at = receive(end)
        if message is None:
            break
        if message != "WATCHDOG=1":
            fail(f"expected only WATCHDOG=1 while running, got {message!r}")
        pings.append(at)
    gaps = [b - a for a, b in zip(pings, pings[1:])]
    print(f"ok   {len(pings)} WATCHDOG=1 in 2 s, gaps {min(gaps):.3f}..{max(gaps):.3f} s" if gaps else "")
    if len(pings) < 6 or max(gaps) > 0.4:
        fail(f"expected a WATCHDOG=1 every 200 ms (timeout 400 ms), got {len(pings)}: gaps {gaps}")
    daemon.send_signal(signal.SIGTERM)
    message, _ = receive(time.monotonic() + 10)
    while message == "WATCHDOG=1":
        message, _ = receive(time.monotonic() + 10)
    if message != "STOPPING=1":
        fail(f"expected STOPPING=1 after SIGTERM, got {message!r}")
    print(f"ok   {message!r}")
    status = daemon.wait(timeout=10)
    if status != 0:
        fail(f"exit status {status} after SIGTERM")
finally:
    if daemon.poll() is None:
        daemon.kill()
        daemon.wait()
print("PASS: READY, watchdog pings from the loop, STOPPING, clean exit")
PY
