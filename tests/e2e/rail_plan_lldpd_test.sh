#!/usr/bin/env bash
# The rail plan for real: a two-rail simulated node (ens1f0np0 <-> rwpeer, ens2f0np0 <-> rwpeer1,
# in a network namespace of the test's own) with Debian's lldpd on each peer as the rail's leaf
# switch, and `rocewatch run --rail-plan` saying rail 0 belongs on leaf-01 and rail 1 on leaf-02.
#   1. cabled as planned: rocewatch_rail_cabled_as_planned 1 on both rails, no rail_miscabled;
#   2. the two cables swapped (each peer's lldpd restarted as the other leaf): 0 on both, and a
#      critical rail_miscabled finding per rail naming the end seen, where that end belongs and
#      what the plan expects.
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands lldpd python3 curl
e2e_setup 180
# lldpd drops to its own user, whose lldpcli reads the configuration and reaches the control
# socket under the test directory.
chmod 0711 "$E2E_DIR"
sim_node_create 2

LLDPD_PIDS=()
# start_leaf PEER NAME: lldpd on PEER as switch NAME, frames every second, the port ID its
# interface name. Configured before its first frame (-O: lldpd waits for lldpcli's resume).
start_leaf() {
  local conf="$E2E_DIR/$1.conf"
  printf 'configure system hostname %s\nconfigure system capabilities enabled bridge,router\nconfigure lldp portidsubtype ifname\nconfigure lldp tx-interval 1\n' "$2" >"$conf"
  e2e_start "lldpd-$1-$2" lldpd -d -I "$1" -u "$E2E_DIR/lldpd-$1.sock" -O "$conf"
  LLDPD_PIDS+=("${E2E_PIDS[-1]}")
}
# stop_leaves: every lldpd stops (it sends its shutdown frame, TTL 0, on SIGTERM).
stop_leaves() {
  local pid
  for pid in "${LLDPD_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${LLDPD_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  LLDPD_PIDS=()
}

cat >"$E2E_DIR/rail-plan" <<'PLAN'
# rail   switch            port
*        leaf-0{rail1}     rwpeer*
PLAN

start_leaf rwpeer leaf-01
start_leaf rwpeer1 leaf-02
sim_node_start_daemon --rail-plan "$E2E_DIR/rail-plan" --node-name gpu-007 --interval 200ms

metric() {  # metric SERIES: its value, or nothing
  e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/metrics" 2>/dev/null |
    awk -v s="$1" 'index($0, s " ") == 1 { print $2 }'
}
both_rails() {  # both_rails VALUE: rocewatch_rail_cabled_as_planned is VALUE on both rails
  [ "$(metric 'rocewatch_rail_cabled_as_planned{netdev="ens1f0np0"}')" = "$1" ] &&
    [ "$(metric 'rocewatch_rail_cabled_as_planned{netdev="ens2f0np0"}')" = "$1" ]
}
findings() { e2e_in_ns curl -fsS --max-time 2 "http://$NODE_TARGET/api/v1/findings"; }

e2e_wait_until 30 "both rails cabled as planned" both_rails 1
findings | python3 -c '
import json, sys
f = [x for x in json.load(sys.stdin)["findings"] if x["check"] == "rail_miscabled"]
sys.exit("rail_miscabled while cabled as planned: %s" % f if f else 0)' || e2e_fail "a finding as planned"
e2e_log "cabled as planned: both rails 1, no rail_miscabled"

# Swap the cables: each peer now sends as the other leaf.
stop_leaves
start_leaf rwpeer leaf-02
start_leaf rwpeer1 leaf-01
e2e_wait_until 30 "both rails miscabled" both_rails 0
findings | python3 -c '
import json, sys
f = {x["subject"]: x for x in json.load(sys.stdin)["findings"] if x["check"] == "rail_miscabled"}
assert set(f) == {"ens1f0np0", "ens2f0np0"}, f
assert all(x["severity"] == "critical" for x in f.values()), f
m = f["ens1f0np0"]["message"]
want = ("ens1f0np0 (mlx5_0/1, rail 0) is cabled to leaf-02 port rwpeer, where rail 1 (ens2f0np0) "
        "belongs; the rail plan (line 2) expects switch leaf-01 port rwpeer*")
assert m.startswith(want), m
print(m)' || e2e_fail "rail_miscabled findings"
stop_leaves
e2e_log "PASS: swapped rails are miscabled, each naming where it belongs"
