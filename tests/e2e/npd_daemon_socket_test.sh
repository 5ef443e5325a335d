#!/usr/bin/env bash
# node-problem-detector through the daemon's local socket, as deploy/npd wires it: the rule's own
# arguments (deploy/npd/rocewatch-monitor.json) and the patch's ROCEWATCH_DAEMON (a unix: URL,
# deploy/npd/node-problem-detector-patch.yaml), against a daemon whose TCP port is loopback-only
# (as behind kube-rbac-proxy) and which saw a GID drift that a one-shot diagnose cannot see. The
# NodeCondition's message must come from the daemon: exit 1 (NonOK) naming the drift; without the
# daemon (ROCEWATCH_DAEMON=none) the same node is OK.
source "$(dirname "$0")/monitoring_stack.sh"
source "$(dirname "$0")/simulated_node.sh"

e2e_require_commands python3 curl
e2e_setup 180
src=$E2E_SOURCE_DIR
sim_node_create 1

socket="$E2E_DIR/run/rocewatch.sock"
sim_node_start_daemon --api-socket "$socket"
e2e_wait_until 20 "the daemon's socket" test -S "$socket"
# A job holds the GIDs; NetworkManager drops and re-adds the address: the GIDs move 2/3 -> 4/5.
sim_flap_networkmanager
drift_seen() {
  curl -fsS --max-time 2 --unix-socket "$socket" http://localhost/api/v1/findings 2>/dev/null |
    grep -q '"check": *"gid_drift"'
}
e2e_wait_until 30 "the daemon's gid_drift finding on its socket" drift_seen

# The rule, exactly as NPD runs it, with the patch's daemon URL and the fixture as the host root.
mapfile -t rule < <(python3 -c '
import json, sys
r = next(r for r in json.load(open(sys.argv[1]))["rules"] if r["condition"] == "RDMANetworkProblem")
print(r["path"]); print("\n".join(r["args"]))' "$src/deploy/npd/rocewatch-monitor.json")
daemon_url=$(python3 -c '
import re, sys
text = open(sys.argv[1]).read()
print(re.search(r"name: ROCEWATCH_DAEMON\n\s+value: (\S+)", text).group(1))' \
  "$src/deploy/npd/node-problem-detector-patch.yaml")
[ "$daemon_url" = "unix:/run/rocewatch/rocewatch.sock" ] || e2e_fail "NPD asks $daemon_url, not the socket"
args=("${rule[@]:1}")
args=("${args[@]/#--host-root=*/--host-root=$E2E_DIR/node}")

npd() {  # DAEMON -> sets status and line
  status=0
  line=$(ROCEWATCH_DAEMON=$1 e2e_in_ns "$ROCEWATCH_BINARY" "${args[@]}" 2>"$E2E_DIR/npd.err") || status=$?
}
npd "unix:$socket"
[ "$status" -eq 1 ] || e2e_fail "NPD through the socket: exit $status ($line), expected 1"
grep -qi "gid" <<<"$line" || e2e_fail "NPD's message does not name the drift: $line"
e2e_log "through the socket: exit 1, \"$line\""
npd none
[ "$status" -ne 1 ] || grep -qvi "drift" <<<"$line" || e2e_fail "without the daemon the one-shot saw the drift too: $line"
e2e_log "without the daemon: exit $status, \"$line\""
echo "PASS: NPD's rule through the daemon's socket reports the drift only the daemon saw"
