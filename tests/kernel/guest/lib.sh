# Helpers of the kernel tier's scenarios (sourced by /kt/runner.sh and by each scenario in the
# guest; busybox sh). The fabric: a veth pair rv0 <-> rv1 in the initial network namespace (rxe
# has one UDP socket, there), 10.77.0.1 on rv0 and 10.77.0.2 on rv1, soft-RoCE devices rxe0 on
# rv0 and rxe1 on rv1. Traffic between the two local addresses is forced out of the veth: the
# local table's rule moves below rules that send locally generated A->B through a table with a
# route via the veth, accept_local takes the packet in at the other end, static neighbours spare
# ARP. Every wait is a poll of a condition with a bound; nothing sleeps a fixed time to "let
# things settle".

# Debian's static busybox runs its own applets before PATH: iproute2 by its path.
ip() { /usr/sbin/ip "$@"; }
rdma() { /usr/sbin/rdma "$@"; }

KT_A=10.77.0.1
KT_B=10.77.0.2
KT_WORK=${KT_WORK:-/tmp/kt}
KT_LISTEN=127.0.0.1:9879
KT_SOCKET=/run/rocewatch/rocewatch.sock

kt_note() { echo "KT NOTE ${KT_SCENARIO:-}: $*"; }
kt_fail() {
  echo "KT FAIL ${KT_SCENARIO:-}: $*"
  exit 1
}
kt_skip() {
  echo "KT SKIP ${KT_SCENARIO:-}: $*"
  exit 77
}

# Seconds since boot, to the hundredth.
kt_now() { cut -d' ' -f1 /proc/uptime; }
# kt_since T: seconds from T to now, e.g. "0.31".
kt_since() { awk -v t="$1" -v n="$(kt_now)" 'BEGIN { printf "%.2f", n - t }'; }

# kt_wait SECONDS COMMAND...: polls COMMAND every 50 ms until it succeeds (0) or the bound
# passes (1).
kt_wait() {
  local deadline
  deadline=$(awk -v t="$(kt_now)" -v s="$1" 'BEGIN { printf "%.2f", t + s }')
  shift
  while ! "$@" >/dev/null 2>&1; do
    awk -v n="$(kt_now)" -v d="$deadline" 'BEGIN { exit !(n >= d) }' && return 1
    sleep 0.05
  done
  return 0
}

# kt_bg COMMAND...: starts COMMAND in the background, recorded for the runner's cleanup; sets
# KT_PID.
kt_bg() {
  "$@" &
  KT_PID=$!
  echo "$KT_PID" >>"$KT_WORK/pids"
}

kt_mac() { cat "/sys/class/net/$1/address"; }

# The routes and neighbours that force A<->B out of the veth. An address removal flushes the
# routes through its device: call again once the address is back.
kt_routes() {
  ip route replace "$KT_B" dev rv0 src "$KT_A" table 100 2>/dev/null || true
  ip route replace "$KT_A" dev rv1 src "$KT_B" table 101 2>/dev/null || true
  ip neigh replace "$KT_B" lladdr "$(kt_mac rv1)" dev rv0 nud permanent
  ip neigh replace "$KT_A" lladdr "$(kt_mac rv0)" dev rv1 nud permanent
}

# Once per boot: the policy rules (the local table's rule moves from 0 to 1000).
kt_rules() {
  ip rule add pref 10 iif lo from "$KT_A" to "$KT_B" lookup 100
  ip rule add pref 11 iif lo from "$KT_B" to "$KT_A" lookup 101
  ip rule add pref 1000 lookup local
  ip rule del pref 0
}

# kt_gids DEVICE: "PORT INDEX GID TYPE IFINDEX" per valid entry, through verbs (no references).
kt_gids() { rw-kernel-qp gids "$1"; }
# kt_gid_index DEVICE GID: the index of GID on DEVICE port 1 (empty when absent).
kt_gid_index() { kt_gids "$1" | awk -v g="$2" '$1 == 1 && $3 == g { print $2; exit }'; }
# kt_v4gid ADDRESS: the IPv4-mapped GID of ADDRESS as the kernel prints it.
kt_v4gid() {
  echo "$1" | awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n", $1, $2, $3, $4 }'
}
kt_gid_at() { [ "$(kt_gid_index "$1" "$2")" = "$3" ]; }
kt_gid_absent() { [ -z "$(kt_gid_index "$1" "$2")" ]; }

kt_fabric_up() {
  ip link add rv0 type veth peer name rv1 || return 1
  for dev in rv0 rv1; do
    echo 1 >"/proc/sys/net/ipv4/conf/$dev/accept_local"
    echo 0 >"/proc/sys/net/ipv4/conf/$dev/rp_filter"
    echo 1 >"/proc/sys/net/ipv6/conf/$dev/accept_dad" 2>/dev/null || true
    ip link set "$dev" up
  done
  ip addr add "$KT_A/24" dev rv0
  ip addr add "$KT_B/24" dev rv1
  kt_routes
  rdma link add rxe0 type rxe netdev rv0 || return 1
  rdma link add rxe1 type rxe netdev rv1 || return 1
  kt_wait 10 kt_gid_at rxe0 "$(kt_v4gid "$KT_A")" 1 || return 1
  kt_wait 10 kt_gid_at rxe1 "$(kt_v4gid "$KT_B")" 1 || return 1
}

kt_fabric_down() {
  rdma link delete rxe0 2>/dev/null
  rdma link delete rxe1 2>/dev/null
  ip link del rv0 2>/dev/null
  ip link del rv0.100 2>/dev/null
  true
}

# The daemon. kt_daemon_start [FLAG...]: `rocewatch run` on guest loopback and its default unix
# socket, state in $KT_WORK, log in $KT_WORK/daemon.log; returns once it serves its first poll.
kt_daemon_start() {
  kt_bg rocewatch run --listen "$KT_LISTEN" --state-file "$KT_WORK/state.json" \
    --no-lldp --log-format json "$@" >>"$KT_WORK/daemon.log" 2>&1
  KT_DAEMON=$KT_PID
  kt_wait 20 kt_http /api/v1/findings || kt_fail "rocewatch run did not serve its first poll in 20 s: $(tail -5 "$KT_WORK/daemon.log")"
}
kt_daemon_stop() {
  kill -TERM "$KT_DAEMON" 2>/dev/null
  kt_wait 10 kt_gone "$KT_DAEMON" || kt_fail "rocewatch run did not exit on SIGTERM within 10 s"
}
kt_gone() { ! kill -0 "$1" 2>/dev/null; }
# kt_http PATH: the body of the daemon's answer to GET PATH on guest loopback; fails unless it
# is a 200. (busybox nc: busybox wget crashes resolving names in a static binary.)
kt_http() {
  printf 'GET %s HTTP/1.0\r\nHost: guest\r\n\r\n' "$1" | nc -w 5 127.0.0.1 "${KT_LISTEN##*:}" |
    tr -d '\r' | awk 'NR == 1 { if ($2 != "200") exit 1; next } body { print; next } $0 == "" { body = 1 }'
}

# kt_metric NAME [LABEL="VALUE"...]: the value of the one series of NAME with those labels
# (empty when there is none).
kt_metric() {
  local name=$1
  shift
  kt_http /metrics | awk -v name="$name" -v want="$*" '
    index($0, name "{") == 1 || $1 == name {
      n = split(want, labels, " "); ok = 1
      for (i = 1; i <= n; i++) if (index($0, labels[i]) == 0) ok = 0
      if (ok) { print $NF; exit }
    }'
}
# kt_metric_is VALUE NAME [LABEL...]: the series holds VALUE.
kt_metric_is() {
  local want=$1
  shift
  [ "$(kt_metric "$@")" = "$want" ]
}

# kt_findings: the daemon's findings document; kt_finding CHECK SUBJECT: that finding's JSON.
kt_findings() { kt_http /api/v1/findings; }
kt_finding() {
  kt_findings | jq -e -c --arg c "$1" --arg s "$2" '.findings[] | select(.check == $c and .subject == $s)'
}
kt_has_finding() { kt_finding "$1" "$2" >/dev/null; }

# kt_diagnose [FLAG...]: `rocewatch diagnose --json` into $KT_WORK/diagnose.json; its exit status
# in KT_DIAGNOSE_STATUS.
kt_diagnose() {
  KT_DIAGNOSE_STATUS=0
  rocewatch diagnose --json "$@" >"$KT_WORK/diagnose.json" 2>"$KT_WORK/diagnose.err" || KT_DIAGNOSE_STATUS=$?
  jq -e . "$KT_WORK/diagnose.json" >/dev/null || kt_fail "diagnose --json printed no JSON (status $KT_DIAGNOSE_STATUS): $(head -c 300 "$KT_WORK/diagnose.err")"
}
# kt_report JQ: evaluates JQ on the last diagnose report.
kt_report() { jq -r "$1" "$KT_WORK/diagnose.json"; }
