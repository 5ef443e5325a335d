#!/usr/bin/env bash
# Soak: `rocewatch run` for SECONDS (default 600) under continuous link flaps and address churn on
# veth "RNIC netdevs" in a network namespace of its own, GID tables moving in the fixture sysfs
# tree as the kernel moves them, and a scrape every second. RSS (VmRSS) is sampled every 10 s; the
# figure is the growth from the end of the warm-up (60 s, or a tenth of the run if shorter) to the
# end. Fails if the growth reaches 1 MiB, if a scrape fails or if the daemon dies.
#   scripts/soak.sh BUILD_DIR [SECONDS]        (root: it creates a network namespace)
# Everything it starts or creates is stopped and removed by the EXIT trap.
set -euo pipefail
build=${1:?usage: soak.sh BUILD_DIR [SECONDS]}
seconds=${2:-600}
binary="$build/rocewatch"
fixture_tool="$build/tests/rocewatch-fixture"
[ -x "$binary" ] && [ -x "$fixture_tool" ] || { echo "soak: build $build first" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
  echo "soak: needs root and iproute2 (network namespaces)" >&2; exit 77
fi

ns="rw-soak-$$"
work=$(mktemp -d /tmp/rocewatch-soak-XXXXXX)
daemon_pid=""
churn_pid=""
cleanup() {
  set +e
  [ -n "$churn_pid" ] && kill "$churn_pid" 2>/dev/null && wait "$churn_pid" 2>/dev/null
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill -TERM "$daemon_pid"; sleep 1; kill -KILL "$daemon_pid" 2>/dev/null || true
  fi
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two rails: ens1f0np0 flaps and loses its address (NetworkManager style), ens2f0np0 keeps it.
"$fixture_tool" rails 2 "$work" >/dev/null
ip netns add "$ns"
ip -n "$ns" link set lo up
for rail in 1 2; do
  ip -n "$ns" link add "ens${rail}f0np0" type veth peer name "peer${rail}"
  ip -n "$ns" link set "ens${rail}f0np0" up
  ip -n "$ns" link set "peer${rail}" up
  ip -n "$ns" addr add "10.0.$((rail - 1)).2/24" dev "ens${rail}f0np0"
done

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ip netns exec "$ns" "$binary" run --host-root "$work" --state-file "$work/state.json" \
  --listen "127.0.0.1:$port" --interval 1s --log-level warn 2>"$work/daemon.log" &
daemon_pid=$!
scrape() { ip netns exec "$ns" curl -sf --max-time 5 "http://127.0.0.1:$port/metrics"; }
for _ in $(seq 100); do scrape >/dev/null 2>&1 && break; sleep 0.1; done
scrape >/dev/null || { echo "soak: daemon did not start" >&2; cat "$work/daemon.log" >&2; exit 1; }

# The churn: every 0.2 s one step of a NetworkManager-style flap on rail 1 (carrier down, address
# removed, carrier up, address re-added with its GIDs one slot pair higher, then back) and an
# ifupdown-style flap on rail 2 (carrier only), plus a secondary address added and removed.
gids="$work/sys/class/infiniband/mlx5_0/ports/1"
v4gid="0000:0000:0000:0000:0000:ffff:0a00:0002"
zero="0000:0000:0000:0000:0000:0000:0000:0000"
move_gids() {  # move_gids FROM TO: the rail's IPv4 v1/v2 GIDs from slots FROM,FROM+1 to TO,TO+1
  local k type
  for k in 0 1; do
    type=$([ "$k" -eq 0 ] && echo "IB/RoCE v1" || echo "RoCE v2")
    rm -rf "$gids/gid_attrs/types/$(($2 + k))" "$gids/gid_attrs/ndevs/$(($2 + k))"
    echo "$type" >"$gids/gid_attrs/types/$(($2 + k))"
    echo ens1f0np0 >"$gids/gid_attrs/ndevs/$(($2 + k))"
    echo "$v4gid" >"$gids/gids/$(($2 + k))"
    echo "$zero" >"$gids/gids/$(($1 + k))"
    # An empty slot's attributes fail to read (EINVAL in sysfs; a directory in the fixture).
    rm -f "$gids/gid_attrs/types/$(($1 + k))" "$gids/gid_attrs/ndevs/$(($1 + k))"
    mkdir -p "$gids/gid_attrs/types/$(($1 + k))" "$gids/gid_attrs/ndevs/$(($1 + k))"
  done
}
(
  slot=2; i=0
  while true; do
    case $((i % 6)) in
      0) ip -n "$ns" link set peer1 down; ip -n "$ns" link set peer2 down ;;
      1) ip -n "$ns" addr del 10.0.0.2/24 dev ens1f0np0 ;;
      2) ip -n "$ns" link set peer1 up; ip -n "$ns" link set peer2 up ;;
      3) ip -n "$ns" addr add 10.0.0.2/24 dev ens1f0np0
         next=$((slot == 2 ? 4 : 2)); move_gids "$slot" "$next"; slot=$next ;;
      4) ip -n "$ns" addr add "10.9.$((i % 200)).1/32" dev ens2f0np0 ;;
      5) ip -n "$ns" addr del "10.9.$(((i - 1) % 200)).1/32" dev ens2f0np0 ;;
    esac
    i=$((i + 1))
    sleep 0.2
  done
) >/dev/null 2>&1 &
churn_pid=$!

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$daemon_pid/status"; }
warmup=$((seconds / 10 < 60 ? seconds / 10 : 60))
start=$(date +%s)
scrapes=0; failed=0; samples=()
baseline=""
while [ $(($(date +%s) - start)) -lt "$seconds" ]; do
  kill -0 "$daemon_pid" 2>/dev/null || { echo "soak: the daemon died" >&2; cat "$work/daemon.log" >&2; exit 1; }
  if scrape >"$work/last.prom" 2>/dev/null; then scrapes=$((scrapes + 1)); else failed=$((failed + 1)); fi
  elapsed=$(($(date +%s) - start))
  if [ $((elapsed % 10)) -eq 0 ]; then
    rss=$(rss_kib)
    samples+=("${elapsed}s:${rss}")
    echo "soak: ${elapsed}s RSS ${rss} KiB, scrapes ok ${scrapes}, failed ${failed}"
    [ -z "$baseline" ] && [ "$elapsed" -ge "$warmup" ] && baseline=$rss
  fi
  sleep 1
done
final=$(rss_kib)
status=0
kill -TERM "$daemon_pid"; wait "$daemon_pid" || status=$?; daemon_pid=""

growth=$((final - ${baseline:-$final}))
sum_of() { awk -v name="$1" 'index($0, name) == 1 {s += $NF} END {print s + 0}' "$work/last.prom"; }
flaps=$(sum_of rocewatch_link_flaps_total)
drifts=$(sum_of rocewatch_gid_drift_events_total)
echo "soak: ${seconds}s, churn steps every 0.2 s; scrapes ok ${scrapes}, failed ${failed}; exit status ${status}"
echo "soak: flaps counted ${flaps}, GID drifts counted ${drifts}"
echo "soak: RSS samples (KiB): ${samples[*]}"
echo "soak: RSS after warm-up ${baseline:-?} KiB, at the end ${final} KiB, growth ${growth} KiB"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ] && [ "$growth" -lt 1024 ]
