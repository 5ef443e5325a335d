# shellcheck shell=bash
# Sourced by the end-to-end tests: runs the monitoring path users run — Prometheus with the
# shipped rules (time windows scaled down in a generated copy), Alertmanager with the shipped
# configuration (pointed at a local PagerDuty Events v2 stand-in) and the stand-in itself — on
# loopback, with free ports, in a temporary directory. Every process is started by e2e_start and
# stopped (by its pid) and the directory removed by the EXIT trap, on success and on failure.
#
#   e2e_setup SECONDS          temp dir, cleanup trap, overall deadline
#   e2e_start_receiver         -> PD_URL, PD_EVENTS
#   e2e_start_alertmanager     -> AM_URL (needs PD_URL)
#   e2e_start_prometheus T...  -> PROM_URL (scrapes targets T as job "rocewatch", sends to AM_URL)
#   e2e_pd_actions, e2e_pd_first_dedup_key, e2e_wait_resolve, e2e_check_clean_end: what the
#                              PagerDuty stand-in received, and the checks every paging test ends with

E2E_SOURCE_DIR=${ROCEWATCH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
E2E_HELPERS="$E2E_SOURCE_DIR/tests/e2e"
E2E_PIDS=()
E2E_DIR=""
# When set (simulated_node.sh sets it), every process and request of the test runs in this network
# namespace, on its loopback; the cleanup deletes it.
E2E_NETNS=""
E2E_CLEANUP_NETNS=""
# Minutes in the shipped rules become seconds in the test copy.
E2E_RULE_SCALE=${E2E_RULE_SCALE:-60}
# How often Prometheus scrapes rocewatch (a test that restarts the daemon between two scrapes
# wants room between them).
E2E_SCRAPE_INTERVAL=${E2E_SCRAPE_INTERVAL:-1s}
# A scrape's timeout; Prometheus refuses one longer than the interval (set both below 1s).
E2E_SCRAPE_TIMEOUT=${E2E_SCRAPE_TIMEOUT:-1s}
# A 32-character PagerDuty integration key, as PagerDuty issues them.
E2E_ROUTING_KEY=${E2E_ROUTING_KEY:-r0cewatche2e0000000000000000key1}

e2e_log() { echo "[$(date -u +%H:%M:%S)] $*"; }
e2e_skip() { echo "SKIP: $*"; exit 77; }
e2e_fail() { echo "FAIL: $*" >&2; exit 1; }

e2e_require_commands() {
  local cmd
  for cmd in "$@"; do
    command -v "$cmd" >/dev/null 2>&1 || e2e_skip "$cmd is not installed (scripts/install-deps.sh e2e)"
  done
}

e2e_setup() {
  E2E_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rocewatch-e2e.XXXXXX")
  # A daemon the test starts serves its local API in the test's directory, never the host's
  # /run/rocewatch (an empty ROCEWATCH_API_SOCKET would be ignored as unset).
  export ROCEWATCH_API_SOCKET="$E2E_DIR/api.sock"
  E2E_DEADLINE=$((SECONDS + ${1:-300}))
  trap e2e_cleanup EXIT
  trap 'exit 1' INT TERM
  # set -e exits silently; say where.
  trap 'echo "FAIL: \"${BASH_COMMAND%%$'"'"'\n'"'"'*}\" failed (line $LINENO of ${BASH_SOURCE[0]##*/})" >&2' ERR
}

e2e_cleanup() {
  local rc=$? pid i
  for pid in "${E2E_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for i in $(seq 50); do
    local alive=0
    for pid in "${E2E_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${E2E_PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "$E2E_CLEANUP_NETNS" ] && ip netns del "$E2E_CLEANUP_NETNS" 2>/dev/null
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -d "$E2E_DIR" ]; then
    local log
    for log in "$E2E_DIR"/*.log; do
      [ -f "$log" ] || continue
      echo "---- last lines of $(basename "$log")"
      tail -n 15 "$log"
    done
  fi
  [ -n "$E2E_DIR" ] && rm -rf "$E2E_DIR"
  exit "$rc"
}

# e2e_in_ns COMMAND...: runs COMMAND in the test's network namespace (if any).
e2e_in_ns() {
  if [ -n "$E2E_NETNS" ]; then ip netns exec "$E2E_NETNS" "$@"; else "$@"; fi
}

# e2e_start NAME COMMAND...: runs COMMAND in the background (in the test's namespace), output in
# $E2E_DIR/NAME.log. `ip netns exec` execs the command: the recorded pid is the command's.
e2e_start() {
  local name=$1
  shift
  local command=("$@")
  [ -n "$E2E_NETNS" ] && command=(ip netns exec "$E2E_NETNS" "$@")
  # A simple command (not a function) in the background: bash execs it, so $! is its pid.
  "${command[@]}" >"$E2E_DIR/$name.log" 2>&1 &
  E2E_PIDS+=($!)
}

# e2e_free_port: a port free on the test's loopback (in its namespace, if any), below the kernel's
# ephemeral range (ip_local_port_range): a port of that range, free when checked, could be taken by
# an outgoing connection (a scrape, a notification) before the server that is given it binds it.
e2e_free_port() {
  e2e_in_ns python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(500):
    port = random.randrange(max(1024, low - 12000), low)
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
    print(port)
    break
else:
    raise SystemExit("no free port below the ephemeral range %d" % low)
'
}

# e2e_wait_until SECONDS WHAT COMMAND...: polls COMMAND every 0.5 s; fails the test after SECONDS
# or at the overall deadline. Calls e2e_tick (if the test defines it) on every round.
e2e_wait_until() {
  local timeout=$1 what=$2
  shift 2
  local until=$((SECONDS + timeout))
  while true; do
    if declare -F e2e_tick >/dev/null; then e2e_tick; fi
    "$@" && return 0
    [ "$SECONDS" -ge "$until" ] && e2e_fail "timed out after ${timeout}s waiting for $what"
    [ "$SECONDS" -ge "$E2E_DEADLINE" ] && e2e_fail "test deadline reached waiting for $what"
    sleep 0.5
  done
}

e2e_http_ok() { e2e_in_ns curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; }

e2e_start_receiver() {
  PD_EVENTS="$E2E_DIR/pagerduty-events.jsonl"
  : >"$PD_EVENTS"
  e2e_start pagerduty-receiver python3 "$E2E_HELPERS/pagerduty_receiver.py" \
    --events "$PD_EVENTS" --port-file "$E2E_DIR/pagerduty.port"
  e2e_wait_until 20 "the PagerDuty stand-in" test -s "$E2E_DIR/pagerduty.port"
  PD_URL="http://127.0.0.1:$(cat "$E2E_DIR/pagerduty.port")/v2/enqueue"
}

e2e_start_alertmanager() {
  local port key_file="$E2E_DIR/pagerduty-rocewatch.key" config="$E2E_DIR/alertmanager.yml"
  printf '%s' "$E2E_ROUTING_KEY" >"$key_file"
  # E2E_AM_KEEP_TIMERS=1 keeps the shipped group_wait and group_interval (timing tests).
  python3 "$E2E_HELPERS/alertmanager_test_copy.py" --url "$PD_URL" --routing-key-file "$key_file" \
    ${E2E_AM_KEEP_TIMERS:+--keep-timers} \
    "$E2E_SOURCE_DIR/deploy/alertmanager/alertmanager.yml" "$config" || e2e_fail "alertmanager test copy"
  amtool check-config "$config" >/dev/null || e2e_fail "amtool check-config of the test copy"
  port=$(e2e_free_port)
  AM_URL="http://127.0.0.1:$port"
  e2e_start alertmanager prometheus-alertmanager --config.file="$config" \
    --storage.path="$E2E_DIR/alertmanager-data" --web.listen-address="127.0.0.1:$port" \
    --cluster.listen-address= --log.level=debug
  e2e_wait_until 30 "Alertmanager ready" e2e_http_ok "$AM_URL/-/ready"
}

# e2e_start_prometheus TARGET...: TARGET is host:port of a rocewatch /metrics endpoint.
e2e_start_prometheus() {
  local port rules="$E2E_DIR/rocewatch-rules.scaled.yaml" config="$E2E_DIR/prometheus.yml"
  local targets
  python3 "$E2E_HELPERS/scale_rule_windows.py" --factor "$E2E_RULE_SCALE" \
    "$E2E_SOURCE_DIR/deploy/prometheus/rocewatch-rules.yaml" "$rules" || e2e_fail "scaled rules"
  targets=$(printf "'%s', " "$@")
  cat >"$config" <<EOF
global:
  scrape_interval: $E2E_SCRAPE_INTERVAL
  scrape_timeout: $E2E_SCRAPE_TIMEOUT
  evaluation_interval: 1s
rule_files: ['$rules']
alerting:
  alertmanagers:
    - static_configs: [{targets: ['${AM_URL#http://}']}]
scrape_configs:
  - job_name: rocewatch
    static_configs: [{targets: [${targets%, }]}]
EOF
  promtool check config "$config" >/dev/null || e2e_fail "promtool check config"
  port=$(e2e_free_port)
  PROM_URL="http://127.0.0.1:$port"
  e2e_start prometheus prometheus --config.file="$config" --storage.tsdb.path="$E2E_DIR/prometheus-data" \
    --web.listen-address="127.0.0.1:$port" --rules.alert.resend-delay=1s
  e2e_wait_until 60 "Prometheus ready" e2e_http_ok "$PROM_URL/-/ready"
}

# e2e_prom_query EXPR: prints the JSON answer of an instant query.
e2e_prom_query() {
  e2e_in_ns curl -fsS --max-time 5 "$PROM_URL/api/v1/query" --data-urlencode "query=$1"
}

# e2e_prom_has EXPR: true when the instant query returns at least one series.
e2e_prom_has() {
  e2e_prom_query "$1" | python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["data"]["result"] else 1)'
}

# e2e_rules_healthy: every loaded rule evaluated without error (and the shipped count was loaded).
e2e_rules_healthy() {
  e2e_in_ns curl -fsS --max-time 5 "$PROM_URL/api/v1/rules" | python3 -c '
import json, sys
groups = json.load(sys.stdin)["data"]["groups"]
rules = [r for g in groups for r in g["rules"]]
bad = [(r["name"], r.get("lastError")) for r in rules if r.get("health") != "ok"]
print("%d rules loaded, %d unhealthy %s" % (len(rules), len(bad), bad))
sys.exit(1 if bad or not rules else 0)'
}

# e2e_rule_iterations: how many times the least evaluated rule group has been evaluated (from
# Prometheus' own prometheus_rule_group_iterations_total), 0 before the first evaluation.
e2e_rule_iterations() {
  e2e_in_ns curl -fsS --max-time 5 "$PROM_URL/metrics" | awk '
    /^prometheus_rule_group_iterations_total[{ ]/ { v = $NF + 0; if (n++ == 0 || v < min) min = v }
    END { printf "%d\n", n ? min : 0 }'
}
e2e_rule_iterations_reached() { [ "$(e2e_rule_iterations)" -ge "$1" ]; }

# e2e_wait_rule_evaluations N WHY: waits until every rule group has been evaluated N more times
# (and so has sent its alerts to Alertmanager N more times), at most 5 s per evaluation plus 10.
# A test that asserts something did *not* happen (no page, no resolve) waits for evaluations
# rather than for seconds: a loaded machine slows Prometheus and the window with it.
e2e_wait_rule_evaluations() {
  local n=$1 why=$2 from
  from=$(e2e_rule_iterations)
  e2e_wait_until $((n * 5 + 10)) "$n rule evaluations ($why)" e2e_rule_iterations_reached $((from + n))
}

# e2e_pd_events FILTER: prints the recorded PagerDuty events (one JSON per line) matching a
# python expression over `e` (the record), e.g. 'e["body"]["event_action"] == "trigger"'.
e2e_pd_events() {
  python3 - "$PD_EVENTS" "$1" <<'EOF'
import json, sys
path, predicate = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    for line in f:
        e = json.loads(line)
        if eval(predicate, {}, {"e": e}):
            print(json.dumps(e, sort_keys=True))
EOF
}

e2e_pd_has() { [ -n "$(e2e_pd_events "$1")" ]; }

# e2e_pd_actions: "ACTION:DEDUP_KEY" of every recorded PagerDuty event, in order, on one line.
e2e_pd_actions() {
  e2e_pd_events 'True' | python3 -c '
import json, sys
print(" ".join("%s:%s" % (b["event_action"], b["dedup_key"]) for b in (json.loads(l)["body"] for l in sys.stdin)))'
}

# e2e_pd_first_dedup_key: the dedup key of the first trigger recorded.
e2e_pd_first_dedup_key() {
  e2e_pd_events 'e["body"].get("event_action") == "trigger"' |
    python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["body"]["dedup_key"])'
}

# e2e_wait_resolve KEY SINCE HOLD WHAT: waits (at most 40 s) for the resolve of incident KEY, and
# fails the test when it came sooner than HOLD seconds (keep_firing_for) after SINCE (Unix time,
# taken before the cause was fixed: Prometheus can see the fix only after it). Sets
# E2E_RESOLVED_AFTER, the seconds from SINCE to the resolve.
e2e_wait_resolve() {
  local key=$1 since=$2 hold=$3 what=$4
  local resolved="e['body'].get('event_action') == 'resolve' and e['body'].get('dedup_key') == '$key'"
  e2e_wait_until 40 "the resolve of the incident" e2e_pd_has "$resolved"
  E2E_RESOLVED_AFTER=$(e2e_pd_events "$resolved" | python3 -c '
import json, sys
print("%.1f" % (json.loads(sys.stdin.readline())["received_at"] - float(sys.argv[1])))' "$since")
  e2e_log "resolved $E2E_RESOLVED_AFTER s after $what (keep_firing_for $hold s)"
  python3 -c 'import sys; sys.exit(float(sys.argv[1]) < float(sys.argv[2]))' "$E2E_RESOLVED_AFTER" "$hold" ||
    e2e_fail "the incident resolved $E2E_RESOLVED_AFTER s after $what, sooner than keep_firing_for ($hold s)"
}

# e2e_check_clean_end: the stand-in rejected no event, every rule evaluated, no self-alert.
e2e_check_clean_end() {
  local rejected
  rejected=$(e2e_pd_events 'not e["accepted"]')
  [ -z "$rejected" ] || e2e_fail "the PagerDuty stand-in rejected events: $rejected"
  e2e_rules_healthy || e2e_fail "a rule failed to evaluate"
  ! e2e_prom_has 'ALERTS{alertname=~"Rocewatch.*"}' ||
    e2e_fail "a self-alert: $(e2e_prom_query 'ALERTS{alertname=~"Rocewatch.*"}')"
}
