#!/usr/bin/env bash
# The container image works: `make image`'s build (scripts/build-image.sh) succeeds, the image runs
# rocewatch as its configured non-root user through an exec-form entrypoint (no shell), and its
# binary, with the image's own libraries, runs as that user: `rocewatch version` prints the
# version of CMakeLists.txt, `rocewatch diagnose --host-root <fixture>` reports the fixture's RDMA
# port (JSON and node-problem-detector mode), the kubelet module loads, and `rocewatch run` serves
# /healthz and /metrics, sends READY=1 to $NOTIFY_SOCKET (libsystemd loads), and exits 0 on
# SIGTERM. Containers cannot be run on our machines (`podman run` fails: the cgroup
# setup), so the image is mounted (`podman image mount`) and its binary run with
# `chroot --userspec`, in a private mount namespace where the fixture is bind-mounted into the
# image's root. Skips (77) only where podman cannot work at all: not installed, not root, or
# `podman info` failing.
source "$(dirname "$0")/../e2e/deploy_lib.sh"
command -v podman >/dev/null 2>&1 || skip "podman is not installed (scripts/install-deps.sh image)"
[ "$(id -u)" -eq 0 ] || skip "chroot and podman image mount need root"
podman info >/dev/null 2>&1 || skip "podman cannot work here: $(podman info 2>&1 | tail -1)"
need_tool chroot "Debian package coreutils"
need_tool unshare "Debian package util-linux"
need_tool curl "Debian package curl"
need_tool python3 "Debian package python3"

version=$("$src/scripts/version.sh")
image=${ROCEWATCH_IMAGE:-localhost/rocewatch:$version}
"$src/scripts/build-image.sh" "$image" 2>&1 | tee "$work/build.log" | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "scripts/build-image.sh failed: $(tail -20 "$work/build.log")"

# The configuration: a numeric non-root user, an exec-form entrypoint, no shell in the command.
user=$(podman image inspect --format '{{.Config.User}}' "$image")
[[ $user =~ ^[1-9][0-9]*:[0-9]+$ ]] || fail "the image's user '$user' is not a numeric non-root uid:gid"
entrypoint=$(podman image inspect --format '{{json .Config.Entrypoint}}' "$image")
[ "$entrypoint" = '["/usr/local/bin/rocewatch"]' ] || fail "entrypoint $entrypoint is not exec-form rocewatch"
# ROCEWATCH_HOST_ROOT in the image's environment: `kubectl exec POD -- rocewatch diagnose` reads /host.
# (Captured first: under pipefail, grep -q leaving early would fail the pipeline with podman's SIGPIPE.)
environment=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image")
grep -qx 'ROCEWATCH_HOST_ROOT=/host' <<<"$environment" ||
  fail "the image's environment lacks ROCEWATCH_HOST_ROOT=/host (it has: ${environment//$'\n'/ })"
echo "ok   user $user, entrypoint $entrypoint, ROCEWATCH_HOST_ROOT=/host"

root=$(podman image mount "$image") || fail "podman image mount $image failed"
trap 'kill "${manager:-}" 2>/dev/null || true; podman image unmount "$image" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
[ -x "$root/usr/local/bin/rocewatch" ] || fail "no /usr/local/bin/rocewatch in the image"
[ -x "$root/usr/bin/install" ] || fail "no install(1) for the DaemonSet's state-dir-owner init container"
[ -d "$root/mnt" ] || fail "no /mnt in the image to bind the fixture onto"

# Runs the image's binary as the image's user, with the fixture host root at /mnt (with
# IN_IMAGE_EXEC set, in place of the calling shell: a background daemon's $! is rocewatch itself).
in_image() {
  ${IN_IMAGE_EXEC:+exec} unshare --mount --propagation private -- sh -c '
    mount --bind "$1" "$2/mnt" && shift 2 && exec chroot --userspec="$0" "$ROOT" "$@"' \
    "$user" "$work/host" "$root" /usr/local/bin/rocewatch "$@"
}
export ROOT="$root"
make_loopback_rnic "$work/host/sys" "4: ACTIVE" yes
chmod -R a+rX "$work"

out=$(in_image version) || fail "rocewatch version failed in the image: $out"
case "$out" in
  "rocewatch $version ("*) echo "ok   $out (as $user)" ;;
  *) fail "rocewatch version printed '$out', not rocewatch $version" ;;
esac

status=0
in_image diagnose --host-root /mnt --json >"$work/report.json" 2>"$work/diagnose.err" || status=$?
[ "$status" -eq 0 ] || fail "diagnose exited $status: $(cat "$work/diagnose.err")"
python3 - "$work/report.json" <<'PY' || fail "diagnose --json did not report the fixture"
import json, sys
report = json.load(open(sys.argv[1]))
gids = [(g["index"], g["gid"], g["type"]) for d in report["devices"] for p in d["ports"] for g in p["gids"]]
assert [d["name"] for d in report["devices"]] == ["mlx5_0"], report["devices"]
assert (3, "0000:0000:0000:0000:0000:ffff:7f00:0001", "roce_v2") in gids, gids
assert report["status"] == "healthy", report["status"]
print(f"ok   diagnose --json in the image: {report['status']}, {len(gids)} GIDs of mlx5_0, "
      f"gid_source {report['gid_source']}")
PY
out=$(in_image diagnose --npd --host-root=/mnt) || fail "diagnose --npd exited $?: $out"
[ "$out" = "RDMA network healthy" ] || fail "diagnose --npd printed '$out'"
echo "ok   diagnose --npd in the image: $out"

# The kubelet module is in the image and loads with the image's libraries: given a "socket" that
# exists but refuses (a plain file), diagnose reports gRPC's refusal, which only the module makes.
[ -f "$root/usr/local/lib/rocewatch/librocewatch-kubelet.so" ] || fail "no kubelet module in the image"
: >"$work/host/kubelet.sock"
in_image diagnose --host-root /mnt --kubelet-socket /mnt/kubelet.sock --json >"$work/kubelet.json" \
  2>"$work/kubelet.err" || true
python3 - "$work/kubelet.json" <<'PY' || fail "the kubelet module did not answer in the image: $(cat "$work/kubelet.err")"
import json, sys
spots = json.load(open(sys.argv[1]))["consumer_sources"]["blind_spots"]
kubelet = [s for s in spots if s.startswith("kubelet: ")]
assert kubelet and "kubelet pod-resources at unix:///mnt/kubelet.sock" in kubelet[0], spots
print(f"ok   the kubelet module loads in the image: {kubelet[0][:90]}")
PY

# A stand-in for systemd's notify socket, in the fixture so the image's user reaches it at
# /mnt/notify: READY=1 proves the image's libsystemd loads (the binary loads it only when
# $NOTIFY_SOCKET is set).
python3 - "$work/host/notify" "$work/notified" <<'PY' &
import os, socket, sys
manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
manager.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
open(sys.argv[2] + ".ready", "w").close()
manager.settimeout(60)
try:
    message = manager.recv(4096).decode()
except socket.timeout:
    message = "(nothing in 60 s)"
open(sys.argv[2] + ".tmp", "w").write(message)
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
PY
manager=$!
for _ in $(seq 1 100); do [ -e "$work/notified.ready" ] && break; sleep 0.1; done
[ -e "$work/notified.ready" ] || fail "the notify socket stand-in did not start"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(NOTIFY_SOCKET=/mnt/notify IN_IMAGE_EXEC=1 in_image run --host-root /mnt --listen "127.0.0.1:$port" \
  --state-file "") >"$work/run.log" 2>&1 &
daemon=$!
for _ in $(seq 1 150); do
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$daemon" 2>/dev/null || fail "rocewatch run exited early: $(cat "$work/run.log")"
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" || fail "no /metrics: $(cat "$work/run.log")"
grep -q "^rocewatch_build_info{version=\"$version\"," "$work/metrics" ||
  fail "no rocewatch_build_info for $version in /metrics"
grep -q '^rocewatch_port_info{device="mlx5_0"' "$work/metrics" || fail "no fixture port in /metrics"
echo "ok   rocewatch run in the image serves /healthz and /metrics"
for _ in $(seq 1 150); do [ -e "$work/notified" ] && break; sleep 0.1; done
wait "$manager" || true
notified=$(cat "$work/notified" 2>/dev/null || echo "(no answer)")
[[ $notified == READY=1$'\n'* ]] ||
  fail "no READY=1 on \$NOTIFY_SOCKET from the image's binary: '$notified'; log: $(tail -5 "$work/run.log")"
echo "ok   READY=1 on \$NOTIFY_SOCKET: the image's libsystemd loads"
kill -TERM "$daemon"
code=0
wait "$daemon" || code=$?
[ "$code" -eq 0 ] || fail "rocewatch run exited $code on SIGTERM: $(tail -5 "$work/run.log")"
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "PASS: image $image ($((size / 1000000)) MB) runs rocewatch as $user"
